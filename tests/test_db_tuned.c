/*
 * test_db_tuned.c - the tuner's queries (db_tuned.c): a device's copy
 * bandwidth.  A tune's resume (db_tuned_find) and the best configurations
 * on databases of every schema are checked with the migrations that
 * brought their columns (test_db_migrate.c).
 *
 * Everything happens in a fresh directory under $TMPDIR (else /tmp),
 * removed at the end (tests/db_fixture.h).
 */
#include <limits.h>
#include <stdint.h>

#include "db/db.h"
#include "tests/db_fixture.h"
#include "tests/test.h"

/* A device's copy bandwidth without naming the copy (db_bandwidth_only):
 * only while one copy variant has measured it there. */
static void test_bandwidth_only(void)
{
	char path[PATH_MAX];
	struct db *db = NULL;
	struct gpu_info g = mkgpu("NVIDIA H100 80GB HBM3", "GPU-bandwidth");
	int64_t dev = 0;

	path_in(path, sizeof path, "bandwidth.db");
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;
	CHECK_INT(db_device_upsert(db, &g, &dev, err, sizeof err), 0);

	double gbps = 0;
	struct db_bandwidth bw = {dev, "device.copy", 2e9, 0.7, 3000, "0.1", ""};
	CHECK_INT(db_bandwidth_only(db, dev, &gbps, err, sizeof err), 0);
	CHECK_INT(db_bandwidth_put(db, &bw, err, sizeof err), 0);
	bw.gbps = 3050;
	CHECK_INT(db_bandwidth_put(db, &bw, err, sizeof err), 0);
	CHECK_INT(db_bandwidth_only(db, dev, &gbps, err, sizeof err), 1);
	CHECK_NEAR(gbps, 3050, 1e-9); /* the newest */
	CHECK_INT(db_bandwidth_only(db, 0, &gbps, err, sizeof err), 0); /* another device: none */
	bw.variant = "other.copy";
	CHECK_INT(db_bandwidth_put(db, &bw, err, sizeof err), 0);
	CHECK_INT(db_bandwidth_only(db, dev, &gbps, err, sizeof err), 0);
	db_close(db);
}

int main(void)
{
	if (db_fixture_begin("db-tuned") != 0)
		return 1;
	test_bandwidth_only();
	db_fixture_end(&test_checks, &test_failures);
	return TEST_END();
}
