/* SPDX-License-Identifier: MIT */
/* layer_check.c - the main() of each mp_NAME_links program (cmake/layer.cmake):
 * linked with all of one folder's objects and only the libraries of the
 * folders below it, it exists to fail to link when that folder calls upward.
 * It is never run. */
int main(void)
{
    return 0;
}
