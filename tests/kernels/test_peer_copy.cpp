// The copy kernel behind the copies between GPUs (codelets/common/peer_copy.cu), here within one
// GPU: every byte arrives, for sizes around its 16-byte words and unrolled loop, aligned and not,
// with few blocks and many, and nothing past the end is touched. (Between GPUs the same kernel runs
// in the Taylor-Green tiling test, test_model, with several GPUs.)
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>

#include "codelets/common/peer_copy.hpp"
#include "device_array.hpp"
#endif

namespace {

#if !defined(TASKDYCORE_HAVE_CUDA)
TEST(PeerCopy, CopiesEveryByte) { GTEST_SKIP() << "built without CUDA (no nvcc): run on a CUDA build"; }
#else
TEST(PeerCopy, CopiesEveryByte) {
  if (!tdc_test::have_device()) GTEST_SKIP() << "no CUDA device on this machine: run on the GPU machine";
  const std::size_t most = (std::size_t(3) << 20) + 64;
  std::vector<unsigned char> src(most), back(most);
  for (std::size_t i = 0; i < most; ++i) src[i] = static_cast<unsigned char>(i * 131 + 7);
  void *src_mem = nullptr, *dst_mem = nullptr;
  ASSERT_EQ(cudaMalloc(&src_mem, most), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dst_mem, most), cudaSuccess);
  auto* d_src = static_cast<unsigned char*>(src_mem);
  auto* d_dst = static_cast<unsigned char*>(dst_mem);
  ASSERT_EQ(cudaMemcpy(d_src, src.data(), most, cudaMemcpyHostToDevice), cudaSuccess);
  for (std::size_t bytes : {std::size_t(0), std::size_t(1), std::size_t(15), std::size_t(16), std::size_t(17),
                            std::size_t(4096 * 16 + 3), std::size_t(1) << 20, (std::size_t(3) << 20) + 13})
    for (std::size_t offset : {std::size_t(0), std::size_t(8), std::size_t(3)})
      for (int blocks : {1, 32, 1000}) {
        SCOPED_TRACE(testing::Message() << bytes << " bytes at offset " << offset << ", " << blocks << " blocks");
        ASSERT_EQ(cudaMemset(d_dst, 0xAB, most), cudaSuccess);
        tdc::peer_copy_kernel(d_dst + offset, d_src + offset, bytes, nullptr, blocks);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        ASSERT_EQ(cudaMemcpy(back.data(), d_dst, most, cudaMemcpyDeviceToHost), cudaSuccess);
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < most && offset + bytes <= most; ++i) {
          const bool inside = i >= offset && i < offset + bytes;
          wrong += back[i] != (inside ? src[i] : 0xAB);
        }
        EXPECT_EQ(wrong, 0u);
      }
  cudaFree(d_src);
  cudaFree(d_dst);
}
#endif

}  // namespace
