/* backend_epoll.c - being written */
typedef int mp__placeholder_backend_epoll;
