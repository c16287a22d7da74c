/*
 * measure.cu - timing of a variant's launch (see measure.cuh).
 *
 * A sample is enqueued in two streams.  The measurement's own stream
 * (`aside`) takes the blocking kernel (nvbench's technique: one thread
 * spinning on a host-mapped flag that the host sets once everything is
 * enqueued, so that no host gap is timed) and, for a cold sample, the L2
 * flush; stream 0, where the variant launches, waits for them and then
 * holds the start event, the launch and the stop event.
 *
 * The sample's time is the GPU's own: the union of the start-to-end
 * intervals of the kernels, memsets and copies CUPTI records on streams
 * other than `aside` (activity.cuh), so the grid's launch and drain, and
 * any gap between a multi-kernel launch's kernels, are not counted: an
 * empty kernel is several times shorter by these timestamps than by the
 * events around it (docs/PERFORMANCE.md).  Without CUPTI the
 * events' interval is the sample, and the result says so.
 *
 * The flush reads a buffer of twice the L2's size rather than writing it
 * (nvbench writes): a written flush leaves the L2 full of dirty lines, and
 * the timed kernel then paid for their write-back, a visible part of a
 * short kernel's time.  The blocking kernel's spin is bounded (BLOCK_LIMIT_NS)
 * so that a host stalled for longer cannot hold the GPU for the watchdog
 * to find: such a sample may hold a host gap, and is dropped and counted.
 * A hot sample batches launches so that each sample lasts about
 * HOT_SAMPLE_MS, and counts the time per launch.  The SM clock comes from
 * NVML, opened with dlopen so that the worker neither links nor needs it:
 * on a machine without it the clocks read 0, nothing is dropped as
 * throttled, and timing goes on.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <math.h>

#include "common/stats.h"
#include "worker/activity.cuh"
#include "worker/cuda_check.cuh"
#include "worker/measure.cuh"

#define WARMUP_MIN_LAUNCHES 3
#define WARMUP_MIN_S 0.020
#define HOT_SAMPLE_MS 0.5
#define HOT_BATCH_MAX 256
#define BLOCK_LIMIT_NS 100000000ull /* 0.1 s: far above enqueueing, far below a deadline */

static double seconds_now(void)
{
	using clock = std::chrono::steady_clock;
	return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

/* ---- NVML, resolved at run time ------------------------------------------ */

/* The few NVML entry points used, declared here so that no NVML header is
 * needed to build.  NVML_SUCCESS is 0; NVML_CLOCK_SM is 1 and NVML_CLOCK_MEM
 * 2 (nvml.h).  The energy counter counts mJ, the power reading mW. */
typedef int (*nvml_init_fn)(void);
typedef int (*nvml_handle_by_pci_fn)(const char *bus_id, void **device);
typedef int (*nvml_clock_fn)(void *device, int type, unsigned *mhz);
typedef int (*nvml_u64_fn)(void *device, unsigned long long *value);
typedef int (*nvml_u32_fn)(void *device, unsigned *value);
/* nvmlFieldValue_t, as nvml.h lays it out. */
struct nvml_field {
	unsigned field_id, scope_id;
	long long timestamp, latency_us;
	int value_type, nvml_return;
	union {
		double d;
		unsigned ui;
		unsigned long ul;
		unsigned long long ull;
		long long sll;
	} value;
};
typedef int (*nvml_fields_fn)(void *device, int count, struct nvml_field *values);
#define NVML_FI_DEV_POWER_INSTANT 186 /* mW, as the value's ui */
#define NVML_OK 0
#define NVML_CLOCK_SM_TYPE 1
#define NVML_CLOCK_MEM_TYPE 2

static struct {
	int tried; /* dlopen attempted (once per process) */
	nvml_handle_by_pci_fn by_pci;
	nvml_clock_fn clock;
	nvml_u64_fn energy;  /* nvmlDeviceGetTotalEnergyConsumption; NULL: none */
	nvml_u32_fn power;   /* nvmlDeviceGetPowerUsage; NULL: none */
	nvml_fields_fn fields; /* nvmlDeviceGetFieldValues, for the instant power; NULL: none */
	nvml_u64_fn reasons; /* the clock event (throttle) reasons; NULL: none */
} nvml;

static void nvml_open(void)
{
	void *lib;
	nvml_init_fn init;

	if (nvml.tried)
		return;
	nvml.tried = 1;
	lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return;
	init = (nvml_init_fn)dlsym(lib, "nvmlInit_v2");
	nvml.by_pci = (nvml_handle_by_pci_fn)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
	nvml.clock = (nvml_clock_fn)dlsym(lib, "nvmlDeviceGetClockInfo");
	if (!init || !nvml.by_pci || !nvml.clock || init() != NVML_OK) {
		nvml.by_pci = NULL;
		nvml.clock = NULL;
		dlclose(lib);
		return;
	}
	/* Each of these may be missing from an older library. */
	nvml.energy = (nvml_u64_fn)dlsym(lib, "nvmlDeviceGetTotalEnergyConsumption");
	nvml.power = (nvml_u32_fn)dlsym(lib, "nvmlDeviceGetPowerUsage");
	nvml.fields = (nvml_fields_fn)dlsym(lib, "nvmlDeviceGetFieldValues");
	nvml.reasons = (nvml_u64_fn)dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
	if (!nvml.reasons)
		nvml.reasons = (nvml_u64_fn)dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
	/* Otherwise the library stays loaded for the life of the worker. */
}

/* NVML's handle of CUDA device `dev`, or NULL when NVML is absent: looked
 * up once per measurement, so that reading the clock after every sample
 * costs one NVML call. */
static void *nvml_device(int dev)
{
	char bus_id[32];
	void *handle;

	nvml_open();
	if (!nvml.clock || cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, dev) != cudaSuccess ||
	    nvml.by_pci(bus_id, &handle) != NVML_OK)
		return NULL;
	return handle;
}

/* A clock of the device in MHz (NVML_CLOCK_*_TYPE), or 0 when unknown. */
static int clock_mhz(void *handle, int type)
{
	unsigned mhz = 0;

	if (!handle || nvml.clock(handle, type, &mhz) != NVML_OK)
		return 0;
	return (int)mhz;
}

static int sm_clock_mhz(void *handle)
{
	return clock_mhz(handle, NVML_CLOCK_SM_TYPE);
}

/* The device's power in W, or -1: the instant reading where the device has
 * one, else NVML's power usage, which some devices average over a second
 * (it would lag a burst of a fraction of one). */
static double power_w(void *handle)
{
	struct nvml_field f = {};
	unsigned mw = 0;

	f.field_id = NVML_FI_DEV_POWER_INSTANT;
	if (nvml.fields && nvml.fields(handle, 1, &f) == NVML_OK && f.nvml_return == NVML_OK)
		return f.value.ui / 1e3;
	return nvml.power && nvml.power(handle, &mw) == NVML_OK ? mw / 1e3 : -1;
}

/* One reading of everything energy.h takes; the counter only when asked
 * (a call costs milliseconds on some devices), timed by the middle of its
 * call. */
static void nvml_poll(void *handle, int counter, struct energy_poll *p)
{
	unsigned long long mj = 0, reasons = 0;
	double t0 = seconds_now();

	p->counter_mj = counter && nvml.energy && nvml.energy(handle, &mj) == NVML_OK ? (double)mj : -1;
	p->t_s = (t0 + seconds_now()) / 2;
	p->power_w = power_w(handle);
	p->sm_mhz = clock_mhz(handle, NVML_CLOCK_SM_TYPE);
	p->mem_mhz = clock_mhz(handle, NVML_CLOCK_MEM_TYPE);
	p->reasons_read = nvml.reasons && nvml.reasons(handle, &reasons) == NVML_OK;
	p->reasons = p->reasons_read ? reasons : 0;
}

/* ---- the blocking kernel ------------------------------------------------- */

/* flag[0]: the host's release; flag[1]: set when the bound released it. */
__global__ void measure_block(volatile int *flag, unsigned long long limit_ns)
{
	unsigned long long t0, t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	while (!flag[0]) {
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
		if (t - t0 > limit_ns) {
			flag[1] = 1;
			return;
		}
	}
}

/* ---- the L2 flush -------------------------------------------------------- */

/* Reads n int4 so that the L2 holds only clean lines of this buffer; the
 * store no thread makes (the xor of the buffer is never that value) keeps
 * the reads from being optimised away. */
__global__ void measure_flush(const int4 *p, size_t n, int *sink)
{
	int acc = 0;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x) {
		int4 v = p[i];
		acc ^= v.x ^ v.y ^ v.z ^ v.w;
	}
	if (acc == 0x5eed1e55)
		*sink = acc;
}

/* ---- sampling ------------------------------------------------------------ */

struct measure_state {
	cudaStream_t aside;  /* the blocking kernel and the flush run here ... */
	cudaEvent_t ready;   /* ... and stream 0 waits for this before the launch */
	cudaEvent_t start, stop;
	int activity;        /* 1: samples are timed from CUPTI's records */
	int64_t aside_id;    /* CUPTI's id of `aside`, whose records are not the sample's */
	int records;         /* records a sample of records_batch launches left; 0: none yet */
	int records_batch;
	int slowdown;        /* launches per counted launch (timing_request.slowdown) */
	char why_events[200]; /* why the samples are timed by events */
	void *flush;         /* 2 x L2 bytes, cold samples only */
	size_t flush_bytes;
	volatile int *flag;  /* host-mapped: the blocking kernel's release */
	int *flag_dev;       /* the same, as the device sees it */
	void *nvml;          /* the device's NVML handle, NULL without NVML */
	int clock_ref_mhz;   /* SM clock after warm-up; 0: unknown, nothing dropped */
	int unheld;          /* samples dropped: the block's bound released them */
	double *samples;     /* t->max_samples, then as many for the statistics */
};

/* Launches and reports a refused launch. */
static int launch_checked(measure_launch_fn launch, void *ctx, struct case_result *r)
{
	cudaError_t e = launch(ctx);

	if (e == cudaSuccess)
		e = cudaGetLastError();
	return e == cudaSuccess ? 0 : cuda_launch_failed(r, "timed launch", e);
}

/* One sample: `batch` launches between the events, enqueued behind the
 * blocking kernel; ms per launch.  *held is 0 when the block's bound, not
 * the host, released it (the sample may then hold a host gap). */
static int sample(struct measure_state *m, measure_launch_fn launch, void *ctx, int batch,
		  double *ms, int *held, struct case_result *r)
{
	float elapsed = 0;
	cudaError_t e;
	const uint64_t since = m->activity ? activity_now() : 0;

	m->flag[0] = 0;
	m->flag[1] = 0;
	measure_block<<<1, 1, 0, m->aside>>>(m->flag_dev, BLOCK_LIMIT_NS);
	if ((e = cudaGetLastError()) != cudaSuccess)
		return cuda_launch_failed(r, "blocking kernel", e);
	if (m->flush) {
		measure_flush<<<1024, 256, 0, m->aside>>>((const int4 *)m->flush,
							   m->flush_bytes / sizeof(int4), (int *)m->flush);
		if ((e = cudaGetLastError()) != cudaSuccess)
			return cuda_launch_failed(r, "L2 flush", e);
	}
	if ((e = cudaEventRecord(m->ready, m->aside)) != cudaSuccess ||
	    (e = cudaStreamWaitEvent(0, m->ready, 0)) != cudaSuccess)
		return cuda_call_failed(r, "ordering the sample after the flush", e);
	if ((e = cudaEventRecord(m->start, 0)) != cudaSuccess)
		return cuda_call_failed(r, "cudaEventRecord", e);
	for (int b = 0; b < batch * m->slowdown; b++)
		if (launch_checked(launch, ctx, r) < 0)
			return -1;
	if ((e = cudaEventRecord(m->stop, 0)) != cudaSuccess)
		return cuda_call_failed(r, "cudaEventRecord", e);
	__sync_synchronize(); /* everything enqueued before the release */
	m->flag[0] = 1;
	if ((e = cudaEventSynchronize(m->stop)) != cudaSuccess)
		return cuda_kernel_failed(r, e);
	if ((e = cudaEventElapsedTime(&elapsed, m->start, m->stop)) != cudaSuccess)
		return cuda_call_failed(r, "cudaEventElapsedTime", e);
	*ms = (double)elapsed / batch;
	*held = !m->flag[1];
	if (m->activity) {
		double busy;
		int records;
		/* The first sample of a batch size learns how many records its
		 * launches leave, from a flush that waits for all of them. */
		int expect = batch == m->records_batch ? m->records : 0;
		if (activity_busy(m->aside_id, since, expect, &busy, &records) < 0 || records == 0) {
			/* One timer per measurement: start again on events. */
			activity_stop();
			m->activity = 0;
			snprintf(m->why_events, sizeof m->why_events, "CUPTI %s",
				 records ? "records lost or late" : "saw no work of the launch");
			return 1;
		}
		*ms = busy / batch;
		if (!expect) {
			m->records = records;
			m->records_batch = batch;
		}
	}
	return 0;
}

/* Warm-up: launches, each waited for, until both minimums are met. */
static int warm_up(measure_launch_fn launch, void *ctx, struct case_result *r)
{
	const double t0 = seconds_now();
	cudaError_t e;

	for (int k = 0; k < WARMUP_MIN_LAUNCHES || seconds_now() - t0 < WARMUP_MIN_S; k++) {
		if (launch_checked(launch, ctx, r) < 0)
			return -1;
		if ((e = cudaStreamSynchronize(0)) != cudaSuccess)
			return cuda_kernel_failed(r, e);
	}
	return 0;
}

/* A sample to keep: held by the block, on an unthrottled GPU.  Dropped
 * samples are counted; at most as many are dropped as are kept, so a GPU
 * that stays throttled (or a host that stays stalled) still gets measured,
 * and the counts say so. */
static int keep_sample(struct measure_state *m, int held, int kept, struct timing_stats *out)
{
	if (m->unheld + out->throttled >= kept + 1)
		return 1;
	if (!held) {
		m->unheld++;
		return 0;
	}
	int mhz = m->clock_ref_mhz ? sm_clock_mhz(m->nvml) : 0;
	if (mhz && mhz < STATS_THROTTLE_FRACTION * m->clock_ref_mhz) {
		out->throttled++;
		return 0;
	}
	return 1;
}

static int measure_samples(const struct timing_request *t, struct measure_state *m,
			   measure_launch_fn launch, void *ctx, struct timing_stats *out,
			   struct case_result *r)
{
	int batch = 1, n = 0, held, met = 0;
	double ms, t0;
	double *scratch = m->samples + t->max_samples;

	if (warm_up(launch, ctx, r) < 0)
		return -1;
	if (m->activity)
		activity_discard(); /* the warm-up's records */
	m->clock_ref_mhz = sm_clock_mhz(m->nvml);
	if (t->hot) {
		/* Size the batch from one timed launch (warm by now). */
		if (sample(m, launch, ctx, 1, &ms, &held, r) < 0)
			return -1;
		if (ms > 0 && ms < HOT_SAMPLE_MS)
			batch = ms * HOT_BATCH_MAX < HOT_SAMPLE_MS ? HOT_BATCH_MAX : (int)(HOT_SAMPLE_MS / ms) + 1;
	}
	out->throttled = 0;
	t0 = seconds_now();
	do {
		int rc = sample(m, launch, ctx, batch, &m->samples[n], &held, r);
		if (rc < 0)
			return -1;
		if (rc > 0) { /* the timer changed: what was taken is not comparable */
			n = 0;
			out->throttled = 0;
			m->unheld = 0;
			t0 = seconds_now();
			continue;
		}
		if (keep_sample(m, held, n, out))
			n++;
	} while (!stats_should_stop(m->samples, n, batch, seconds_now() - t0, t, scratch, &met));
	stats_summarize(m->samples, n, scratch, out);
	out->noise_met = met;
	out->timer = m->activity ? TIMER_CUPTI : TIMER_EVENTS;
	if (!m->activity)
		case_result_note(r, "timed by CUDA events (%s)", m->why_events);
	if (m->unheld)
		case_result_note(r, "timing: %d samples dropped: the blocking kernel's %.1f s "
				 "bound released them before the host did", m->unheld, BLOCK_LIMIT_NS / 1e9);
	return 0;
}

/* ---- energy: a burst after the samples ------------------------------------ */

/* The launches enqueued at a time (a chunk) aim at this much GPU time; the
 * next chunk is enqueued while one runs, so that the GPU does not wait for
 * the host between them. */
#define ENERGY_CHUNK_S 0.005
#define ENERGY_CHUNK_MAX 4096
#define ENERGY_POLLS_MAX 8192

/* Enqueues one chunk and the event that tells when it is done. */
static int energy_chunk(measure_launch_fn launch, void *ctx, int chunk, cudaEvent_t done,
			struct case_result *r)
{
	cudaError_t e;

	for (int k = 0; k < chunk; k++)
		if (launch_checked(launch, ctx, r) < 0)
			return -1;
	if ((e = cudaEventRecord(done, 0)) != cudaSuccess)
		return cuda_call_failed(r, "cudaEventRecord", e);
	return 0;
}

/* Appends a burst to the trace file at path (timing_request.energy_trace)
 * in one write, so that workers appending to one file do not mix their
 * lines; a path that is no regular file, or cannot be written, is passed
 * over (the trace is a diagnostic, the measurement goes on), and opening
 * never waits (a FIFO without a reader). */
static void trace_append(const char *path, const struct energy_burst *b)
{
	char *text = NULL;
	size_t len = 0;
	struct stat st;
	FILE *mem = open_memstream(&text, &len);
	int fd;

	if (!mem)
		return;
	energy_trace_write(mem, b);
	if (fclose(mem) == 0 &&
	    (fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0644)) >= 0) {
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
			(void)!write(fd, text, len);
		close(fd);
	}
	free(text);
}

/* The thread that reads NVML through a burst, so that the launching thread
 * never waits for it (a counter read costs milliseconds on some devices):
 * it fills polls until `stop` or the array is full, publishing each
 * reading by `count`. */
struct energy_poller {
	void *nvml;
	struct energy_poll *polls;
	size_t count;   /* readings published; __atomic */
	int stop;       /* set by the launching thread; __atomic */
};

/* Readings at least this far apart, so that ENERGY_POLLS_MAX of them span
 * the longest burst on a device whose NVML answers in microseconds. */
#define ENERGY_POLL_GAP_S (ENERGY_BURST_MAX_S / (ENERGY_POLLS_MAX / 2))

static void *energy_poller_run(void *arg)
{
	struct energy_poller *p = (struct energy_poller *)arg;
	size_t n = 0;

	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE) && n < ENERGY_POLLS_MAX) {
		double t0 = seconds_now();
		nvml_poll(p->nvml, 1, &p->polls[n]);
		__atomic_store_n(&p->count, ++n, __ATOMIC_RELEASE);
		double left = ENERGY_POLL_GAP_S - (seconds_now() - t0);
		if (left > 0) {
			struct timespec ts = {0, (long)(left * 1e9)};
			nanosleep(&ts, NULL);
		}
	}
	return NULL;
}

/* Back-to-back launches while a second thread reads NVML (energy.h),
 * until the counter has ticked ENERGY_TICKS times inside the burst or
 * ENERGY_BURST_MAX_S have passed; then energy_estimate.  Launches go in
 * chunks of about ENERGY_CHUNK_S, one queued behind the one running.  The
 * burst is every launch between the start and stop events, gaps included
 * where the host cannot issue launches as fast as the GPU runs them (very
 * short kernels): its energy per launch is then what a launch costs at
 * the rate launches can be issued.  Without the counter, one reading gives
 * the clocks and the reasons.  The burst comes after the samples and
 * changes none of them.  launch_ms: the time of a launch, to size chunks. */
static int measure_energy(struct measure_state *m, measure_launch_fn launch, void *ctx,
			  double launch_ms, const char *trace, struct energy_stats *out,
			  struct case_result *r)
{
	struct energy_poll probe;
	struct energy_poller poller = {};
	struct energy_burst b = {};
	cudaEvent_t done[2] = {};
	pthread_t thread;
	int head = 0, queued = 0, running = 0, rc = -1;
	float gpu_ms = 0;
	cudaError_t e;

	if (!m->nvml)
		return 0;
	nvml_poll(m->nvml, 1, &probe);
	if (probe.counter_mj < 0) {
		b.polls = &probe;
		b.n = 1;
		b.start_s = b.end_s = probe.t_s;
		energy_estimate(&b, out);
		return 0;
	}
	double per_chunk = launch_ms > 0 ? ENERGY_CHUNK_S * 1e3 / launch_ms + 1 : 1;
	int chunk = per_chunk < ENERGY_CHUNK_MAX ? (int)per_chunk : ENERGY_CHUNK_MAX;
	poller.nvml = m->nvml;
	poller.polls = (struct energy_poll *)malloc(ENERGY_POLLS_MAX * sizeof *poller.polls);
	if (!poller.polls) {
		case_result_set(r, OUTCOME_ERROR, "out of host memory");
		return -1;
	}
	for (int i = 0; i < 2; i++)
		if ((e = cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming)) != cudaSuccess) {
			cuda_call_failed(r, "cudaEventCreate", e);
			goto out;
		}
	if ((e = cudaEventRecord(m->start, 0)) != cudaSuccess) {
		cuda_call_failed(r, "cudaEventRecord", e);
		goto out;
	}
	b.start_s = seconds_now();
	if (pthread_create(&thread, NULL, energy_poller_run, &poller) != 0) {
		/* The timing stands; only the energy is missing. */
		case_result_note(r, "energy: cannot start the NVML reader; not measured");
		rc = 0;
		goto out;
	}
	running = 1;
	for (;;) {
		if (queued == 2) {
			if ((e = cudaEventSynchronize(done[head])) != cudaSuccess) {
				cuda_kernel_failed(r, e);
				goto out;
			}
			head = (head + 1) % 2;
			queued--;
		}
		/* A chunk is still queued: the GPU is at work now, after every
		 * reading counted in n. */
		size_t n = __atomic_load_n(&poller.count, __ATOMIC_ACQUIRE);
		b.end_s = seconds_now();
		if (n == ENERGY_POLLS_MAX || b.end_s - b.start_s > ENERGY_BURST_MAX_S ||
		    energy_ticks_inside(poller.polls, n, b.start_s) >= ENERGY_TICKS)
			break;
		if (energy_chunk(launch, ctx, chunk, done[(head + queued) % 2], r) < 0)
			goto out;
		b.launches += chunk;
		queued++;
	}
	if ((e = cudaEventRecord(m->stop, 0)) != cudaSuccess ||
	    (e = cudaEventSynchronize(m->stop)) != cudaSuccess ||
	    (e = cudaEventElapsedTime(&gpu_ms, m->start, m->stop)) != cudaSuccess) {
		cuda_call_failed(r, "timing the energy burst", e);
		goto out;
	}
	__atomic_store_n(&poller.stop, 1, __ATOMIC_RELEASE);
	pthread_join(thread, NULL);
	running = 0;
	b.polls = poller.polls;
	b.n = poller.count;
	b.gpu_s = gpu_ms / 1e3;
	b.launch_s = launch_ms / 1e3;
	if (trace)
		trace_append(trace, &b);
	if (!energy_estimate(&b, out))
		case_result_note(r, "energy: the counter ticked %d times in a %.2f s burst; not measured",
				 energy_ticks_inside(b.polls, b.n, b.start_s), b.gpu_s);
	else if (out->busy > 0 && out->busy < ENERGY_BUSY)
		case_result_note(r, "energy: launches ran only about %.0f %% of the burst (the host "
				 "issues them slower than they run): a launch's energy holds its share of "
				 "the GPU's idle time, and its uncertainty that share", 100 * out->busy);
	else if (out->watts_sampled > 0 &&
		 fabs(out->watts_sampled / out->watts - 1) > ENERGY_CROSS_CHECK)
		case_result_note(r, "energy: the counter's %.0f W and the power readings' %.0f W differ "
				 "by more than %.0f %%", out->watts, out->watts_sampled,
				 100 * ENERGY_CROSS_CHECK);
	rc = 0;
out:
	if (running) {
		__atomic_store_n(&poller.stop, 1, __ATOMIC_RELEASE);
		pthread_join(thread, NULL);
	}
	for (int i = 0; i < 2; i++)
		if (done[i])
			(void)cudaEventDestroy(done[i]);
	free(poller.polls);
	return rc;
}

/* Samples are timed from CUPTI's records when it loads: first learn
 * the id CUPTI gives the measurement's own stream, from a blocking kernel
 * released at once.  Returns -1 only on a CUDA error. */
static int activity_open_for(struct measure_state *m, struct case_result *r)
{
	cudaError_t e;

	if (activity_start(m->why_events, sizeof m->why_events) < 0)
		return 0;
	m->flag[0] = 1;
	measure_block<<<1, 1, 0, m->aside>>>(m->flag_dev, BLOCK_LIMIT_NS);
	if ((e = cudaGetLastError()) != cudaSuccess) {
		activity_stop();
		return cuda_launch_failed(r, "blocking kernel", e);
	}
	if ((e = cudaStreamSynchronize(m->aside)) != cudaSuccess) {
		activity_stop();
		return cuda_kernel_failed(r, e);
	}
	m->aside_id = activity_sole_stream();
	if (m->aside_id < 0) {
		activity_stop();
		snprintf(m->why_events, sizeof m->why_events, "CUPTI gave no record of a test kernel");
		return 0;
	}
	m->activity = 1;
	return 0;
}

int measure_kernel(const struct timing_request *t, measure_launch_fn launch, void *ctx,
		   double bytes, struct timing_stats *out, struct case_result *r)
{
	struct measure_state m = {};
	int dev = 0, l2 = 0, rc = -1;
	cudaError_t e;

	if (t->max_samples < 1) {
		case_result_set(r, OUTCOME_ERROR, "timing: max_samples=%d", t->max_samples);
		return -1;
	}
	m.slowdown = t->slowdown > 1 ? t->slowdown : 1;
	m.samples = (double *)malloc(2 * (size_t)t->max_samples * sizeof *m.samples);
	if (!m.samples) {
		case_result_set(r, OUTCOME_ERROR, "out of host memory");
		return -1;
	}
	if ((e = cudaGetDevice(&dev)) != cudaSuccess ||
	    (e = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev)) != cudaSuccess) {
		cuda_call_failed(r, "device attributes", e);
		goto done;
	}
	if ((e = cudaEventCreate(&m.start)) != cudaSuccess || (e = cudaEventCreate(&m.stop)) != cudaSuccess) {
		cuda_call_failed(r, "cudaEventCreate", e);
		goto done;
	}
	if ((e = cudaHostAlloc((void **)&m.flag, 2 * sizeof(int), cudaHostAllocMapped)) != cudaSuccess ||
	    (e = cudaHostGetDevicePointer((void **)&m.flag_dev, (void *)m.flag, 0)) != cudaSuccess) {
		cuda_call_failed(r, "blocking kernel flag", e);
		goto done;
	}
	if (!t->hot && l2 > 0) {
		m.flush_bytes = 2 * (size_t)l2;
		if ((e = cudaMalloc(&m.flush, m.flush_bytes)) != cudaSuccess ||
		    (e = cudaMemset(m.flush, 0, m.flush_bytes)) != cudaSuccess) {
			cuda_call_failed(r, "L2 flush buffer", e);
			goto done;
		}
	}
	if ((e = cudaStreamCreate(&m.aside)) != cudaSuccess ||
	    (e = cudaEventCreateWithFlags(&m.ready, cudaEventDisableTiming)) != cudaSuccess) {
		cuda_call_failed(r, "the measurement's stream", e);
		goto done;
	}
	if (activity_open_for(&m, r) < 0)
		goto done;
	m.nvml = nvml_device(dev);
	out->clock_start_mhz = sm_clock_mhz(m.nvml);
	if (measure_samples(t, &m, launch, ctx, out, r) < 0)
		goto done;
	out->clock_end_mhz = sm_clock_mhz(m.nvml);
	if (t->energy) {
		/* The burst is timed by events; CUPTI's records of it would only
		 * fill its buffers. */
		if (m.activity) {
			activity_stop();
			m.activity = 0;
		}
		if (measure_energy(&m, launch, ctx, out->median_ms, t->energy_trace, &out->energy, r) < 0)
			goto done;
	}
	out->bytes = bytes;
	rc = 0;
done:
	if (m.activity)
		activity_stop();
	/* After a sticky error these fail too, harmlessly. */
	if (m.ready)
		(void)cudaEventDestroy(m.ready);
	if (m.aside)
		(void)cudaStreamDestroy(m.aside);
	if (m.start)
		(void)cudaEventDestroy(m.start);
	if (m.stop)
		(void)cudaEventDestroy(m.stop);
	(void)cudaFree(m.flush);
	if (m.flag)
		(void)cudaFreeHost((void *)m.flag);
	free(m.samples);
	return rc;
}
