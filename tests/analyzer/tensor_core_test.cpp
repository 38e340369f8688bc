#include <catch2/catch.hpp>

#include "steplint/analyzer/gpu_summary.h"

using steplint::analyzer::isTensorCoreKernelName;

TEST_CASE("tb_plugin's tensor-core allowlist is recognised", "[tensor_core]") {
  CHECK(isTensorCoreKernelName("volta_h884gemm_64x64_ldg8_nn"));
  CHECK(isTensorCoreKernelName(
      "volta_s884cudnn_fp16_256x128_ldg8_dgrad_f2f_exp_small_nhwc2nchw_tt_v1"));
  CHECK(isTensorCoreKernelName("turing_fp16_s1688gemm_fp16_128x128_ldg8_f2f_nn"));
  CHECK(isTensorCoreKernelName("ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn"));
  CHECK(isTensorCoreKernelName("ampere_h16816gemm_256x128_ldg8_stages_64x3_nn"));
  CHECK(isTensorCoreKernelName("turing_i8816gemm_int8_128x128_ldg16_nt"));
  CHECK(isTensorCoreKernelName("xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize128x128x32"));
  CHECK(isTensorCoreKernelName("void cudnn::detail::dgrad_1x1_stride_2x2<float>(int)"));
}

TEST_CASE("modern tensor-core families are recognised (beyond TB-Q3)", "[tensor_core]") {
  CHECK(isTensorCoreKernelName(
      "sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn"));
  CHECK(isTensorCoreKernelName(
      "sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel"));
  CHECK(isTensorCoreKernelName(
      "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x256x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"));
  CHECK(isTensorCoreKernelName(
      "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4>(cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4::Params)"));
  CHECK(isTensorCoreKernelName(
      "void cutlass::device_kernel<cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_1x2x1_0_tnn_align8_warpspecialized_cooperative_epi_tma>(T1::Params)"));
  CHECK(isTensorCoreKernelName(
      "_ZN7cutlass6KernelINS_4gemm6kernel4GemmINS1_11threadblock12MmaPipelinedINS1_9GemmShapeILi128ELi128ELi32EEENS_4warp11MmaTensorOpE"));
  CHECK(isTensorCoreKernelName("nvjet_hsh_128x256_64x4_2x1_v_bz_coopA_NTN"));
  CHECK(isTensorCoreKernelName("nvjet_tst_192x192_64x3_2x1_v_bz_coopB_TNT"));
  CHECK(isTensorCoreKernelName(
      "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::half_t>>(Flash_fwd_params)"));
  CHECK(isTensorCoreKernelName(
      "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits>(Flash_bwd_params)"));
  CHECK(isTensorCoreKernelName(
      "fmha_cutlassF_bf16_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<cutlass::bfloat16_t>::Params)"));
  CHECK(isTensorCoreKernelName("sm90_gemm_bf16_wgmma_kernel"));
  CHECK(isTensorCoreKernelName("void nvcuda_wmma_example_kernel(half*, half*, float*)"));
  // Hopper: FP8 grouped GEMMs (DeepSeek's H800 training trace), FlashAttention 3, CUTLASS 3's
  // spelling of warp-group MMA.
  CHECK(isTensorCoreKernelName(
      "void cutlass::device_kernel<dpsk::grouped_gemm::cuda::fp8_ptp128c::GemmKernel>(dpsk::grouped_gemm::cuda::fp8_ptp128c::GemmKernel::Params)"));
  CHECK(isTensorCoreKernelName("void deep_gemm::fp8_gemm_kernel<128, 128>(float*, int)"));
  CHECK(isTensorCoreKernelName(
      "void cutlass::device_kernel<flash::FlashAttnBwd<flash::CollectiveMainloopBwd<2>, cutlass::bfloat16_t>>(T1::Params)"));
  CHECK(isTensorCoreKernelName(
      "void flash::compute_attn_ws<Flash_fwd_kernel_traits<192, 128, 128, 12, 2, false, 1, cutlass::bfloat16_t, 128>, true>(int)"));
  CHECK(isTensorCoreKernelName(
      "void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cutlass::gemm::collective::CollectiveMma<cutlass::gemm::MainloopSm90TmaGmmaWarpSpecialized<4>>>>(T1::Params)"));
  // ROCm matrix cores (MFMA) in Tensile GEMMs
  CHECK(isTensorCoreKernelName(
      "Cijk_Ailk_Bjlk_SB_Bias_AS_SAV_UserArgs_MT64x16x16_MI16x16x1_SN_LDSB0_AFC1"));
}

TEST_CASE("FP32 and non-GEMM kernels are not tensor-core kernels", "[tensor_core]") {
  CHECK_FALSE(isTensorCoreKernelName("volta_sgemm_128x64_nn"));
  CHECK_FALSE(isTensorCoreKernelName("ampere_sgemm_32x32_sliced1x4_tn"));
  CHECK_FALSE(isTensorCoreKernelName("sgemm"));
  CHECK_FALSE(isTensorCoreKernelName(
      "void implicit_convolve_sgemm<float, float, 1024, 6, 7, 3, 3, 5, 1, false, true, true>(int, int)"));
  CHECK_FALSE(isTensorCoreKernelName("volta_scudnn_128x64_relu_interior_nn_v1"));
  CHECK_FALSE(isTensorCoreKernelName("cudnn_infer_ampere_scudnn_128x64_relu_xregs_large_nn_v1"));
  CHECK_FALSE(isTensorCoreKernelName("ampere_gcgemm_64x64_nt"));
  CHECK_FALSE(isTensorCoreKernelName(
      "void cutlass::Kernel<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(cutlass_80_simt_sgemm_128x32_8x5_nn_align1::Params)"));
  CHECK_FALSE(isTensorCoreKernelName(
      "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas"));
  CHECK_FALSE(isTensorCoreKernelName("nvjet_sss_64x64_32x4_1x1_v_bz_NNN"));
  // FP8 conversions are not matrix multiplies, even in FBGEMM.
  CHECK_FALSE(isTensorCoreKernelName(
      "void cuda::per_token_cast_to_fp8_with_channels<__nv_bfloat16, 128, false, 128, false>(int)"));
  CHECK_FALSE(isTensorCoreKernelName(
      "void fbgemm_gpu::(anonymous namespace)::_compute_FP8_quantize_cuda_kernel<float>(float const*, int)"));
  CHECK_FALSE(isTensorCoreKernelName(
      "fmha_cutlassF_f32_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<float>::Params)"));
  CHECK_FALSE(isTensorCoreKernelName(
      "void cublasLt::splitKreduce_kernel<32, 16, int, float, float, float, float, true, false, false>(cublasLt::cublasSplitKParams<float>)"));
  CHECK_FALSE(isTensorCoreKernelName(
      "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>(int)"));
  CHECK_FALSE(isTensorCoreKernelName(
      "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"));
  CHECK_FALSE(isTensorCoreKernelName("triton_poi_fused_add_cos_sin_0"));
  CHECK_FALSE(isTensorCoreKernelName(
      "Cijk_Ailk_Bjlk_SB_MT64x64x8_SN_GRVW4_K1_LBSPP0"));  // Tensile without MFMA
  CHECK_FALSE(isTensorCoreKernelName(""));
}
