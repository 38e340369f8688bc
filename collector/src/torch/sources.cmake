# RecordFunction hooks (STEPLINT_WITH_TORCH). Paths relative to collector/.
set(STEPLINT_COLLECTOR_TORCH_SOURCES
  src/torch/torch_hooks.cpp
  src/torch/torch_describe.cpp
)
# RecordFunction::inputs() asserts a member that only non-NDEBUG builds of torch set; release
# builds of libtorch (Debian's, the pip wheels) never set it, so without NDEBUG every inputs()
# call throws inside torch and the shapes are lost (docs/reference/toolchain.md §3.3). The flag sits in
# padding, so compiling this one TU with NDEBUG keeps the layout compatible.
set_source_files_properties(src/torch/torch_hooks.cpp PROPERTIES COMPILE_DEFINITIONS NDEBUG)
