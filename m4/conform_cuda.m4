# conform_cuda.m4 - find nvcc and choose the CUDA architectures.
#
# CONFORM_CHECK_CUDA
#   --with-cuda[=DIR]  CUDA toolkit root (default: nvcc on PATH, then
#                      /usr/local/cuda); --without-cuda builds host code only.
#   --with-cuda-arch=LIST  comma or space separated list of sm_XY / compute_XY.
#                      sm_90 is always built (the project's reference GPU);
#                      the default is sm_80 sm_90 plus compute_90 PTX, which
#                      newer GPUs JIT-compile.
# Sets NVCC, CUDA_ROOT, CUDA_LIBS, NVCC_GENCODE, CUDA_ARCHS, the conditional
# HAVE_CUDA and conform_cuda_summary.  When nvcc is not found and CUDA was not
# asked for explicitly, the build goes on without kernels (and says so).
AC_DEFUN([CONFORM_CHECK_CUDA], [
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda@<:@=DIR@:>@], [CUDA toolkit root (default: autodetect)])],
    [], [with_cuda=check])
  AC_ARG_WITH([cuda-arch],
    [AS_HELP_STRING([--with-cuda-arch=LIST], [GPU architectures, e.g. "sm_80,sm_90" (sm_90 always added; default sm_80 sm_90 compute_90)])],
    [], [with_cuda_arch=default])

  have_cuda=no
  NVCC=
  AS_CASE([$with_cuda],
    [no], [],
    [yes|check], [
      AC_PATH_PROG([NVCC], [nvcc], [], [$PATH:/usr/local/cuda/bin])
    ],
    [
      AS_IF([test -x "$with_cuda/bin/nvcc"], [NVCC="$with_cuda/bin/nvcc"],
        [AC_MSG_ERROR([--with-cuda=$with_cuda: no executable $with_cuda/bin/nvcc])])
    ])

  AS_IF([test -n "$NVCC"], [
    # nvcc on PATH may be a wrapper script or a symlink outside the toolkit;
    # nvcc itself reports its toolkit root (TOP) in a dry run.
    AC_MSG_CHECKING([for the CUDA toolkit root])
    CUDA_ROOT=`$NVCC -dryrun -x cu -c /dev/null -o /dev/null 2>&1 | sed -n 's/^#\$ TOP=//p' | head -n 1`
    AS_IF([test -z "$CUDA_ROOT" || test ! -d "$CUDA_ROOT"],
      [CUDA_ROOT=`dirname "$NVCC"`/..])
    CUDA_ROOT=`cd "$CUDA_ROOT" && pwd -P`
    AC_MSG_RESULT([$CUDA_ROOT])
    AC_MSG_CHECKING([for the static CUDA runtime])
    cudart_dir=
    for d in "$CUDA_ROOT/lib64" "$CUDA_ROOT/lib" "$CUDA_ROOT/targets/x86_64-linux/lib"; do
      AS_IF([test -f "$d/libcudart_static.a"], [cudart_dir=$d; break])
    done
    AS_IF([test -n "$cudart_dir"], [
      AC_MSG_RESULT([$cudart_dir])
      have_cuda=yes
    ], [
      AC_MSG_RESULT([no])
      AS_IF([test "x$with_cuda" != xcheck],
        [AC_MSG_ERROR([libcudart_static.a not found under $CUDA_ROOT])])
      AC_MSG_WARN([nvcc found but no libcudart_static.a: building without kernels])
    ])
  ], [
    AS_IF([test "x$with_cuda" = xyes], [AC_MSG_ERROR([--with-cuda: nvcc not found on PATH or in /usr/local/cuda/bin])])
  ])

  NVCC_GENCODE=
  CUDA_ARCHS=
  AS_IF([test "x$have_cuda" = xyes], [
    AS_IF([test "x$with_cuda_arch" = xdefault || test "x$with_cuda_arch" = xyes],
      [arch_list="sm_80 sm_90 compute_90"],
      [arch_list=`echo "$with_cuda_arch" | tr ',' ' '`])
    AS_CASE([" $arch_list "], [*" sm_90 "*], [], [arch_list="$arch_list sm_90"])
    for a in $arch_list; do
      AS_CASE([$a],
        [sm_[[0-9]]*], [v=`echo $a | sed 's/^sm_//'`
                        NVCC_GENCODE="$NVCC_GENCODE -gencode=arch=compute_$v,code=sm_$v"],
        [compute_[[0-9]]*], [v=`echo $a | sed 's/^compute_//'`
                        NVCC_GENCODE="$NVCC_GENCODE -gencode=arch=compute_$v,code=compute_$v"],
        [AC_MSG_ERROR([--with-cuda-arch: '$a' is not sm_XY or compute_XY])])
      CUDA_ARCHS="$CUDA_ARCHS $a"
    done
    CUDA_ARCHS=`echo $CUDA_ARCHS`
    AC_MSG_CHECKING([whether nvcc builds for $CUDA_ARCHS])
    echo '__global__ void k(int *p) { *p = 1; }' > conftest.cu
    AS_IF([$NVCC $NVCC_GENCODE -c conftest.cu -o conftest.o >&AS_MESSAGE_LOG_FD 2>&1],
      [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no])
       AC_MSG_ERROR([nvcc cannot build for $CUDA_ARCHS (see config.log)])])
    rm -f conftest.cu conftest.o
    CUDA_LIBS="-L$cudart_dir -lcudart_static -ldl -lrt -lpthread"
    # CUPTI times cold samples from the GPU's own timestamps (worker/activity.cu).
    # Only its header is needed to build; the library is opened at run time,
    # first from where this toolkit keeps it.
    AC_MSG_CHECKING([for CUPTI's activity API])
    cupti_inc=
    for d in "$CUDA_ROOT/include" "$CUDA_ROOT/extras/CUPTI/include" "$CUDA_ROOT/targets/x86_64-linux/include"; do
      AS_IF([test -f "$d/cupti_activity.h"], [cupti_inc=$d; break])
    done
    cupti_lib=
    for d in "$CUDA_ROOT/lib64" "$CUDA_ROOT/lib" "$CUDA_ROOT/extras/CUPTI/lib64" "$CUDA_ROOT/targets/x86_64-linux/lib"; do
      AS_IF([test -f "$d/libcupti.so"], [cupti_lib=$d/libcupti.so; break])
    done
    AS_IF([test -n "$cupti_inc"], [
      AC_MSG_RESULT([$cupti_inc${cupti_lib:+, $cupti_lib}])
      CUPTI_CPPFLAGS="-I$cupti_inc"
      AC_DEFINE([HAVE_CUPTI], [1], [Define if cold samples can be timed from CUPTI's records])
      AS_IF([test -n "$cupti_lib"],
        [AC_DEFINE_UNQUOTED([CONFORM_CUPTI_LIB], ["$cupti_lib"], [The toolkit's libcupti, tried first at run time])])
      conform_cupti_summary="yes (cold samples from GPU timestamps when libcupti loads)"
    ], [
      AC_MSG_RESULT([no])
      conform_cupti_summary="no (cold samples timed by CUDA events)"
    ])
    # NVRTC compiles users' kernel files at run time (worker/nvrtc.c opens
    # it); NVRTC is given the toolkit's headers for <cuda_bf16.h> and
    # <cooperative_groups.h>.
    nvrtc_lib=
    for d in "$CUDA_ROOT/lib64" "$CUDA_ROOT/lib" "$CUDA_ROOT/targets/x86_64-linux/lib"; do
      AS_IF([test -z "$nvrtc_lib" && test -f "$d/libnvrtc.so"], [nvrtc_lib=$d/libnvrtc.so])
    done
    AS_IF([test -n "$nvrtc_lib"],
      [AC_DEFINE_UNQUOTED([CONFORM_NVRTC_LIB], ["$nvrtc_lib"], [The toolkit's libnvrtc, tried first at run time])])
    cuda_inc=
    for d in "$CUDA_ROOT/include" "$CUDA_ROOT/targets/x86_64-linux/include"; do
      AS_IF([test -z "$cuda_inc" && test -f "$d/cuda_bf16.h"], [cuda_inc=$d])
    done
    AS_IF([test -n "$cuda_inc"],
      [AC_DEFINE_UNQUOTED([CONFORM_CUDA_INCLUDE], ["$cuda_inc"], [CUDA's headers, for NVRTC])])
    AC_DEFINE([HAVE_CUDA], [1], [Define if CUDA kernels are built])
    AC_DEFINE_UNQUOTED([CONFORM_CUDA_ARCHS], ["$CUDA_ARCHS"], [CUDA architectures built])
    conform_cuda_summary="yes ($NVCC, `$NVCC --version | sed -n 's/.*release \([[0-9.]]*\).*/\1/p'`)"
  ], [
    conform_cuda_summary="no (host code only; conform will say no kernels are built)"
  ])
  AC_SUBST([NVCC])
  AC_SUBST([CUDA_ROOT])
  AC_SUBST([CUDA_LIBS])
  AC_SUBST([CUPTI_CPPFLAGS])
  AC_SUBST([NVCC_GENCODE])
  AC_SUBST([CUDA_ARCHS])
  AM_CONDITIONAL([HAVE_CUDA], [test "x$have_cuda" = xyes])
])
