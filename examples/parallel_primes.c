// Counts primes below N with T threads (striped so each thread gets similar work) and prints
// the count and the time: the "math scales with threads" demo.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct job { long from, step, limit, found; };

static int is_prime(long n) {
  if (n < 2) return 0;
  for (long d = 2; d * d <= n; d++) if (n % d == 0) return 0;
  return 1;
}

static void *count(void *p) {
  struct job *job = p;
  for (long n = job->from; n < job->limit; n += job->step) job->found += is_prime(n);
  return NULL;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1;
  long limit = argc > 2 ? atol(argv[2]) : 3000000;
  if (threads < 1 || threads > 256 || limit < 2) {
    fprintf(stderr, "usage: parallel_primes [threads 1..256] [limit >= 2]\n");
    return 2;
  }
  pthread_t tids[256];
  struct job jobs[256];
  double start = now_ms();
  for (int t = 0; t < threads; t++) {
    jobs[t] = (struct job){t, threads, limit, 0};
    if (pthread_create(&tids[t], NULL, count, &jobs[t])) { perror("pthread_create"); return 1; }
  }
  long total = 0;
  for (int t = 0; t < threads; t++) { pthread_join(tids[t], NULL); total += jobs[t].found; }
  printf("%d thread(s): %ld primes below %ld in %.0f ms\n", threads, total, limit, now_ms() - start);
  return 0;
}
