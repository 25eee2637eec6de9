/* registry.c - the table of compiled-in backends: every list of backend
 * names (usage, --help, errors) is printed from it.  Adding a backend is
 * its file plus one row here. */
#include "backends/backend.h"

#include <string.h>

#include "common/names.h"

extern const mp_backend_ops mp_backend_select;
extern const mp_backend_ops mp_backend_poll;
extern const mp_backend_ops mp_backend_epoll;
extern const mp_backend_ops mp_backend_epoll_et;
extern const mp_backend_ops mp_backend_ppoll;
extern const mp_backend_ops mp_backend_epoll_pwait2;
extern const mp_backend_ops mp_backend_io_uring;

const mp_backend_ops *const mp_backends[] = {
    &mp_backend_select,
    &mp_backend_poll,
    &mp_backend_epoll,
    &mp_backend_epoll_et,
    &mp_backend_ppoll,
    &mp_backend_epoll_pwait2,
    &mp_backend_io_uring,
    NULL,
};

const mp_backend_ops *mp_backend_find(const char *name)
{
    for (size_t i = 0; mp_backends[i]; i++)
        if (!strcmp(mp_backends[i]->name, name))
            return mp_backends[i];
    return NULL;
}

const char *mp_backend_names(void)
{
    static char buf[256];
    const char *names[16];
    size_t n = 0;
    for (; mp_backends[n] && n < sizeof names / sizeof names[0]; n++)
        names[n] = mp_backends[n]->name;
    return mp_names_join(buf, sizeof buf, names, n);
}
