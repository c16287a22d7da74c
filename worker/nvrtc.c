/*
 * nvrtc.c - opening NVRTC and compiling with it (see nvrtc.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* CONFORM_NVRTC_LIB */
#endif

#include "worker/nvrtc.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"

/* Looks up every function; -1 naming the first missing. */
static int nvrtc_bind(struct nvrtc *lib, char *err, size_t len)
{
	static const struct {
		const char *symbol;
		size_t offset;
	} fns[] = {
		{"nvrtcGetErrorString", offsetof(struct nvrtc, get_error_string)},
		{"nvrtcVersion", offsetof(struct nvrtc, version)},
		{"nvrtcCreateProgram", offsetof(struct nvrtc, create_program)},
		{"nvrtcDestroyProgram", offsetof(struct nvrtc, destroy_program)},
		{"nvrtcCompileProgram", offsetof(struct nvrtc, compile_program)},
		{"nvrtcGetProgramLogSize", offsetof(struct nvrtc, get_program_log_size)},
		{"nvrtcGetProgramLog", offsetof(struct nvrtc, get_program_log)},
		{"nvrtcGetCUBINSize", offsetof(struct nvrtc, get_cubin_size)},
		{"nvrtcGetCUBIN", offsetof(struct nvrtc, get_cubin)},
		{"nvrtcAddNameExpression", offsetof(struct nvrtc, add_name_expression)},
		{"nvrtcGetLoweredName", offsetof(struct nvrtc, get_lowered_name)},
	};

	for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
		void *f = dlsym(lib->handle, fns[i].symbol);
		if (!f) {
			snprintf(err, len, "%s has no %s (NVRTC older than CUDA 11.1?)", lib->path, fns[i].symbol);
			return -1;
		}
		memcpy((char *)lib + fns[i].offset, &f, sizeof f);
	}
	if (lib->version(&lib->major, &lib->minor) != 0) {
		snprintf(err, len, "%s: nvrtcVersion failed", lib->path);
		return -1;
	}
	return 0;
}

int nvrtc_open(struct nvrtc *lib, char *err, size_t len)
{
	const char *env = getenv("CONFORM_NVRTC");
	const char *tried[4];
	size_t ntried = 0;

	memset(lib, 0, sizeof *lib);
	if (env && *env) {
		tried[ntried++] = env;
	} else {
#ifdef CONFORM_NVRTC_LIB
		tried[ntried++] = CONFORM_NVRTC_LIB;
#endif
		tried[ntried++] = "libnvrtc.so.13";
		tried[ntried++] = "libnvrtc.so.12";
	}
	for (size_t i = 0; i < ntried; i++) {
		lib->handle = dlopen(tried[i], RTLD_NOW | RTLD_LOCAL);
		if (!lib->handle)
			continue;
		text_copy(lib->path, sizeof lib->path, tried[i]);
		/* Found by its soname ("libnvrtc.so.13"), it is known by the
		 * file the loader took, so that user_build_include_dir() can
		 * look beside it. */
		struct link_map *map = NULL;
		if (dlinfo(lib->handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name &&
		    map->l_name[0] == '/')
			text_copy(lib->path, sizeof lib->path, map->l_name);
		if (nvrtc_bind(lib, err, len) < 0) {
			nvrtc_close(lib);
			return -1;
		}
		return 0;
	}
	if (env && *env) {
		snprintf(err, len, "NVRTC not found: CONFORM_NVRTC=%s: %s", env, dlerror());
	} else {
		size_t used = (size_t)snprintf(err, len, "NVRTC not found (tried");
		for (size_t i = 0; i < ntried && used < len; i++)
			used += (size_t)snprintf(err + used, len - used, "%s %s", i ? "," : "", tried[i]);
		if (used < len)
			snprintf(err + used, len - used, "; set CONFORM_NVRTC to libnvrtc's path)");
	}
	return -1;
}

void nvrtc_close(struct nvrtc *lib)
{
	if (lib->handle)
		dlclose(lib->handle);
	memset(lib, 0, sizeof *lib);
}

/* NVRTC's log, allocated; NULL when it has none or memory ran out. */
static char *program_log(const struct nvrtc *lib, nvrtc_program prog)
{
	size_t size = 0;
	char *log;

	if (lib->get_program_log_size(prog, &size) != 0 || size == 0)
		return NULL;
	if (!(log = malloc(size + 1)))
		return NULL;
	if (lib->get_program_log(prog, log) != 0) {
		free(log);
		return NULL;
	}
	log[size] = '\0';
	return log;
}

/* nvrtc_compile with the headers as NVRTC takes them: two arrays. */
static int compile_program(const struct nvrtc *lib, const struct nvrtc_job *job, const char *const *texts,
			   const char *const *names, char *lowered, size_t lowered_len, void **code,
			   size_t *code_len, char **log, char *err, size_t len)
{
	nvrtc_program prog = NULL;
	const char *mangled = NULL;
	int rc;

	if ((rc = lib->create_program(&prog, job->src, job->name, job->nheaders, texts, names)) != 0) {
		snprintf(err, len, "nvrtcCreateProgram: %s", lib->get_error_string(rc));
		return -1;
	}
	if ((rc = lib->add_name_expression(prog, job->entry)) != 0) {
		snprintf(err, len, "nvrtcAddNameExpression(%s): %s", job->entry, lib->get_error_string(rc));
		lib->destroy_program(&prog);
		return -1;
	}
	rc = lib->compile_program(prog, job->nopts, job->opts);
	*log = program_log(lib, prog);
	if (rc != 0) {
		snprintf(err, len, "%s", lib->get_error_string(rc));
		lib->destroy_program(&prog);
		return -1;
	}
	if ((rc = lib->get_lowered_name(prog, job->entry, &mangled)) != 0 || !mangled ||
	    strlen(mangled) >= lowered_len) {
		snprintf(err, len, "nvrtcGetLoweredName(%s): %s", job->entry,
			 rc ? lib->get_error_string(rc) : "no name, or one too long");
		lib->destroy_program(&prog);
		return -1;
	}
	strcpy(lowered, mangled);
	size_t size = 0;
	if ((rc = lib->get_cubin_size(prog, &size)) != 0 || size == 0) {
		snprintf(err, len, "nvrtcGetCUBINSize: %s", rc ? lib->get_error_string(rc) : "no cubin");
		lib->destroy_program(&prog);
		return -1;
	}
	if (!(*code = malloc(size))) {
		snprintf(err, len, "out of memory for a cubin of %zu bytes", size);
		lib->destroy_program(&prog);
		return -1;
	}
	if ((rc = lib->get_cubin(prog, *code)) != 0) {
		snprintf(err, len, "nvrtcGetCUBIN: %s", lib->get_error_string(rc));
		free(*code);
		*code = NULL;
		lib->destroy_program(&prog);
		return -1;
	}
	*code_len = size;
	lib->destroy_program(&prog);
	return 0;
}

int nvrtc_compile(const struct nvrtc *lib, const struct nvrtc_job *job, char *lowered, size_t lowered_len,
		  void **code, size_t *code_len, char **log, char *err, size_t len)
{
	const char **texts = NULL, **names = NULL;

	*code = NULL;
	*code_len = 0;
	*log = NULL;
	lowered[0] = '\0';
	if (job->nheaders > 0) {
		texts = malloc((size_t)job->nheaders * sizeof *texts);
		names = malloc((size_t)job->nheaders * sizeof *names);
		if (!texts || !names) {
			free(texts);
			free(names);
			snprintf(err, len, "out of memory for %d headers", job->nheaders);
			return -1;
		}
		for (int i = 0; i < job->nheaders; i++) {
			texts[i] = job->headers[i].text;
			names[i] = job->headers[i].name;
		}
	}
	/* The arrays live until the program is destroyed: NVRTC's manual
	 * does not say it copies them at creation. */
	int rc = compile_program(lib, job, texts, names, lowered, lowered_len, code, code_len, log, err, len);
	free(texts);
	free(names);
	return rc;
}
