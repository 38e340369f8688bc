// Whether the tests run under AddressSanitizer, for the few checks that must adapt to it.
#pragma once

namespace steplint::test {

/// True when built with AddressSanitizer: its redzones and quarantine inflate memory use, it
/// runs several times slower, and it reserves terabytes of address space (so `ulimit -v`
/// guards cannot be used).
constexpr bool kSanitized =
#if defined(__SANITIZE_ADDRESS__)
    true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    true;
#else
    false;
#endif
#else
    false;
#endif

}  // namespace steplint::test
