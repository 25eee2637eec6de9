/* backend_poll.c - being written */
typedef int mp__placeholder_backend_poll;
