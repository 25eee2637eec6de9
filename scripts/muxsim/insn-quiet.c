/* SPDX-License-Identifier: MIT */
/* insn-quiet.c - linked into QEMU's tests/plugin/insn.c (libinsn-quiet.so, built by
 * scripts/lib/qemu-source.sh with -Wl,--wrap=qemu_plugin_outs): its output
 * passes through here, and the line it prints for every consecutive
 * execution of one instruction (each iteration of a rep string instruction,
 * hundreds of millions in a boot) is dropped.  Its counting is untouched. */
#include <string.h>

void __real_qemu_plugin_outs(const char *string);
void __wrap_qemu_plugin_outs(const char *string);

void __wrap_qemu_plugin_outs(const char *string)
{
    static const char repeat[] = "detected repeat execution";
    if (strncmp(string, repeat, sizeof repeat - 1) != 0)
        __real_qemu_plugin_outs(string);
}
