/* Two threads with default attributes; the second reverses the line the first read. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static char line[256];

static void *read_line(void *unused) {
    if (!fgets(line, sizeof line, stdin)) line[0] = 0;
    line[strcspn(line, "\n")] = 0;
    return NULL;
}

static void *reverse(void *unused) {
    size_t n = strlen(line);
    for (size_t i = 0; i < n / 2; i++) {
        char c = line[i]; line[i] = line[n - 1 - i]; line[n - 1 - i] = c;
    }
    return NULL;
}

int main(void) {
    pthread_t reader, reverser;
    if (pthread_create(&reader, NULL, read_line, NULL) != 0) return 1;
    pthread_join(reader, NULL);
    if (pthread_create(&reverser, NULL, reverse, NULL) != 0) return 2;
    pthread_join(reverser, NULL);
    printf("%s\n", line);
    return 0;
}
