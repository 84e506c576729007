#include <cstdlib>  // defines __GLIBC__ (with glibc), which the #if below reads

#include "cli/commands.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int main(int argc, char** argv) {
#if defined(__GLIBC__)
  // A fixed mmap threshold: glibc otherwise raises it (up to 32 MB) each
  // time a large block is freed, after which blocks of a few megabytes come
  // from the heap and, freed, stay there in pieces: at 10^6 buffers that
  // was 10% more memory than the plan needs (128 KiB is glibc's default).
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
  return memplan::RunCli(argc, argv);
}
