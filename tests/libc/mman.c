/* tests/libc/mman.c - <sys/mman.h> through the C library (user/libc/mman.c):
 * an anonymous mapping, a shared file mapping written back by msync and
 * read with stdio, and errno after a refused call. Prints one line each. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void) {
    char* p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 1;
    strcpy(p + 4096, "anon");
    printf("%s ", p + 4096);
    printf("%d\n", munmap(p, 8192));
    errno = 0;
    void* bad = mmap(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("zero length: %s errno %s\n", bad == MAP_FAILED ? "MAP_FAILED" : "mapped", errno == EINVAL ? "EINVAL" : "?");
    int fd = open("mm.txt", O_CREAT | O_RDWR | O_TRUNC, 0644);
    write(fd, "........", 8);
    char* f = mmap(NULL, 8, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (f == MAP_FAILED) return 2;
    memcpy(f + 2, "mmap", 4);
    printf("msync %d\n", msync(f, 8, MS_SYNC));
    char line[16] = {0};
    FILE* in = fopen("mm.txt", "r");
    fgets(line, sizeof line, in);
    fclose(in);
    printf("file %s\n", line);
    unlink("mm.txt");
    return 0;
}
