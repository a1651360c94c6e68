/* A helper header of range.c's. */
#define LIMIT 1000
