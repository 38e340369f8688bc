namespace steplint::analyzer {}
