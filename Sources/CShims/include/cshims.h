#ifndef OFFGRID_CSHIMS_H
#define OFFGRID_CSHIMS_H
/* Atomically swaps two paths (Linux renameat2 RENAME_EXCHANGE). Returns 0 or -1 with errno set;
   where the call does not exist it fails with ENOSYS and callers fall back to two renames. */
int offgrid_rename_exchange(const char *a, const char *b);
#endif
