# conform_cub.m4 - CUB features that only some toolkits have.
#
# CONFORM_CHECK_CUB_WARP_REDUCE_BATCHED
#   Defines HAVE_CUB_WARP_REDUCE_BATCHED when nvcc compiles a use of
#   cub::WarpReduceBatched (cub/warp/warp_reduce_batched.cuh, CCCL 3.4 and
#   later); without it warp.batched_cub reports SKIP.  Needs CONFORM_CHECK_CUDA
#   first; sets conform_cub_batched_summary.
AC_DEFUN([CONFORM_CHECK_CUB_WARP_REDUCE_BATCHED], [
  AC_REQUIRE([CONFORM_CHECK_CUDA])
  conform_cub_batched_summary=no
  AS_IF([test "x$have_cuda" = xyes], [
    AC_MSG_CHECKING([for cub::WarpReduceBatched])
    cat > conftest.cu <<'CONFTEST_EOF'
#include <cub/warp/warp_reduce_batched.cuh>
__global__ void k(float *out)
{
	using R = cub::WarpReduceBatched<float, 4, 8>;
	__shared__ typename R::TempStorage temp[4];
	float in[4] = {1, 2, 3, 4}, res[1];
	R(temp[threadIdx.x / 8]).ReduceToStriped(in, res, [](float a, float b) { return a + b; });
	out[threadIdx.x] = res[0];
}
CONFTEST_EOF
    AS_IF([$NVCC -std=c++17 -gencode=arch=compute_90,code=sm_90 -c conftest.cu -o conftest.o >&AS_MESSAGE_LOG_FD 2>&1],
      [AC_MSG_RESULT([yes])
       AC_DEFINE([HAVE_CUB_WARP_REDUCE_BATCHED], [1],
         [Define if CUB has cub::WarpReduceBatched])
       conform_cub_batched_summary=yes],
      [AC_MSG_RESULT([no])
       conform_cub_batched_summary="no (warp.batched_cub cases are SKIP)"])
    rm -f conftest.cu conftest.o
  ])
])
