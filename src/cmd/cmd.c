/* cmd.c - what the verbs share.  See cmd.h. */
#include "cmd/cmd.h"

int mp_exit_status(int code)
{
    return code == 0 ? 0 : code == MP_EUSAGE ? 2 : 1;
}
