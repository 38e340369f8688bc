// A stand-in libtorch_cpu.so for the torch-mismatch test: only its file name and place (a
// wheel's torch/lib/, next to torch/version.py) matter to the preload.
extern "C" int steplint_fake_libtorch_cpu() { return 0; }
