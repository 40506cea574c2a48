/* make bench: bfgen's CPU time (user + system, its own and that of any process it waits for)
 * to generate every schema, the least of RUNS runs: the least is the run the machine's other
 * work disturbed least, and CPU time, not wall time, is what bfgen costs (processes side by
 * side move wall time, not work). The first run, not counted, writes the files into OUT; the
 * counted ones find them there and compare, as `make generate` does when nothing changed.
 * usage: bench_bfgen_cpu RUNS OUT BFGEN SCHEMA.yaml... */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static double seconds(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec / 1e6; }

/* Runs bfgen once (its output thrown away); the CPU seconds it took, or -1 if it failed. */
static double run_once(char **argv)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage use;
    if (wait4(pid, &status, 0, &use) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return seconds(use.ru_utime) + seconds(use.ru_stime);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fputs("usage: bench_bfgen_cpu RUNS OUT BFGEN SCHEMA.yaml...\n", stderr);
        return 2;
    }
    int runs = atoi(argv[1]);
    if (runs < 1)
        runs = 1;
    /* bfgen --out OUT SCHEMA...: argv[2] is OUT, argv[3] bfgen, then the schemas */
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!args)
        return 1;
    args[0] = argv[3];
    args[1] = "--out";
    args[2] = argv[2];
    for (int i = 4; i < argc; i++)
        args[i - 1] = argv[i];
    double best = run_once(args); /* the first run: not counted */
    for (int r = 0; r < runs && best >= 0; r++) {
        double t = run_once(args);
        if (r == 0 || t < 0 || t < best)
            best = t;
    }
    free(args);
    if (best < 0) {
        fprintf(stderr, "bench_bfgen_cpu: %s failed\n", argv[3]);
        return 1;
    }
    printf("bench: bfgen_cpu_ms %.0f\n", best * 1000);
    return 0;
}
