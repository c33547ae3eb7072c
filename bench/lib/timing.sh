# Timing helpers the bench scripts source (bash): medians of repeated runs measured with GNU time.

# The median of the numbers on stdin, one per line.
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# One run of a command: prints "wall cpu rssKiB" (cpu = user + system seconds). The command's
# stdout is dropped; when it fails, its stderr is shown and the script stops. Wall time comes from
# the shell's microsecond clock around GNU time (whose own %e is rounded to 10 ms, too coarse for
# runs of tens of milliseconds); it includes starting GNU time, well under a millisecond. A locale
# that writes a decimal comma gets it read as a dot.
measure() {
  local t=${TMPDIR:-/tmp}/offgrid-bench-time.$$ start=${EPOCHREALTIME/,/.} end
  /usr/bin/time -f "%U %S %M" -o "$t" "$@" >/dev/null 2>"$t.err" || { cat "$t.err" >&2; rm -f "$t" "$t.err"; exit 1; }
  end=${EPOCHREALTIME/,/.}
  awk -v s="$start" -v e="$end" '{printf "%.4f %s %s\n", e - s, $1 + $2, $3}' "$t"
  rm -f "$t" "$t.err"
}

# series N LABEL COMMAND...: N runs (each after `eval "$SERIES_PRE"`, when set), one row
# "LABEL wall CPU RSS" of medians on stderr (label column SERIES_WIDTH wide, default 52), and
# "wall cpu" medians on stdout.
series() {
  local n=$1 label=$2; shift 2
  local results="" pre=${SERIES_PRE:-true}
  for _ in $(seq "$n"); do eval "$pre"; results+="$(measure "$@")"$'\n'; done
  local w c m
  w=$(echo "$results" | awk 'NF{print $1}' | median)
  c=$(echo "$results" | awk 'NF{print $2}' | median)
  m=$(echo "$results" | awk 'NF{print $3}' | median)
  printf "  %-${SERIES_WIDTH:-52}s %8.3f s wall %7.2f s CPU %8.1f MiB\n" "$label" "$w" "$c" "$(awk -v m="$m" 'BEGIN{print m/1024}')" >&2
  echo "$w $c"
}
