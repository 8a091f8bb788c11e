/*
 * The host's cross-core hand-over latency: two threads pinned to two CPUs take turns incrementing one shared
 * counter, so every increment moves the counter's cache line from one CPU to the other. Prints the nanoseconds
 * per hand-over. On a virtual machine this moves with where the hypervisor runs the virtual CPUs (about 45 ns
 * against about 200 ns on the benchmark's machine), and with it the cost of every contended atomic update in the
 * server under test (run repo200-host-state-2026-11-28 in the git history of docs/benchmarks).
 * Usage: hostprobe [HAND_OVERS [CPU_A [CPU_B]]]  (default 1000000 0 1)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Atomic long counter;
static long hand_overs;
static int first_cpu;

static void *take_turns(void *arg) {
    int cpu = (int)(long)arg;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0) {
        fprintf(stderr, "hostprobe: cannot pin a thread to CPU %d\n", cpu);
        exit(2);
    }
    long mine = cpu == first_cpu ? 0 : 1;
    for (long i = 0; i < hand_overs; i++) {
        while ((atomic_load_explicit(&counter, memory_order_acquire) & 1) != mine) {
        }
        atomic_fetch_add(&counter, 1);
    }
    return NULL;
}

int main(int argc, char **argv) {
    hand_overs = argc > 1 ? atol(argv[1]) : 1000000;
    first_cpu = argc > 2 ? atoi(argv[2]) : 0;
    int second_cpu = argc > 3 ? atoi(argv[3]) : 1;
    if (hand_overs <= 0 || first_cpu == second_cpu) {
        fprintf(stderr, "usage: hostprobe [HAND_OVERS > 0 [CPU_A [CPU_B != CPU_A]]]\n");
        return 2;
    }
    struct timespec t0, t1;
    pthread_t a, b;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_create(&a, NULL, take_turns, (void *)(long)first_cpu);
    pthread_create(&b, NULL, take_turns, (void *)(long)second_cpu);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
    printf("%.1f ns per hand-over (CPUs %d and %d)\n", ns / (2.0 * hand_overs), first_cpu, second_cpu);
    return 0;
}
