# What a bench writes into (bash, sourced): the file system holding a directory, and for ext4
# whether it keeps a journal. It matters for outputs of many files: ext4 without a journal, when
# it allocates a new file's inode, skips every inode freed in the last 60 s, checking them one by
# one for each new file, so writing N files just after N were removed costs the kernel N^2 checks
# (perf: __ext4_new_inode / recently_deleted). With a journal it reuses them at once.

# require_out_dir SCRIPT DIR: stops SCRIPT (exit 2) when its --out-dir DIR is not a directory.
require_out_dir() {
  [ -d "$2" ] || { echo "$1: --out-dir $2: no such directory" >&2; exit 2; }
}

# describe_fs DIR: one line, e.g. "/dev/vda ext4 (no journal), rw,relatime,...".
describe_fs() {
  local dir=$1 src fstype opts journal=""
  read -r src fstype opts < <(findmnt -no SOURCE,FSTYPE,OPTIONS -T "$dir")
  src=${src%%\[*}   # a bind mount's source reads /dev/vda[/sub/dir]
  if [ "$fstype" = ext4 ]; then
    local task=/sys/fs/ext4/$(basename "$(readlink -f "$src")")/journal_task
    if [ -r "$task" ]; then
      [ "$(cat "$task")" = "<none>" ] && journal=" (no journal)" || journal=" (journal)"
    fi
  fi
  echo "$src $fstype$journal, $opts"
}
