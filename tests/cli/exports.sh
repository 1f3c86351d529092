#!/usr/bin/env bash
# What the shared libraries export, and what they depend on. libflange.so
# must export exactly the functions flange.h declares (FLANGE_API), except
# the plot functions (fl_plot_*), which libflange-plot.so exports and
# nothing else; no internal symbol (the test-only allocation failure
# injection among them) and no data may leak out; and libflange.so must not
# depend on PLplot, so that a host embedding the simulator does not load it.
. "$FLANGE_SRC/tests/lib/cli.sh"
command -v nm >/dev/null && command -v readelf >/dev/null || { echo "SKIP: binutils missing"; exit 77; }
core="$FLANGE_BUILD/libflange.so"
plot="$FLANGE_BUILD/libflange-plot.so"
[ -f "$core" ] && [ -f "$plot" ] || { echo "FAIL: $core or $plot not built"; exit 1; }

# declared: every name a FLANGE_API declaration introduces, continuation
# lines joined first
/usr/bin/python3 - "$FLANGE_SRC/include/flange.h" > "$T/declared" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
names = set()
for decl in re.findall(r'^FLANGE_API\b([^;]*);', text, flags=re.M):
    m = re.search(r'\b(fl_\w+)\s*\(', decl)
    if m: names.add(m.group(1))
print('\n'.join(sorted(names)))
PY
grep -v '^fl_plot_' "$T/declared" > "$T/declared_core"
grep '^fl_plot_' "$T/declared" > "$T/declared_plot"
[ "$(wc -l < "$T/declared_core")" -ge 40 ] && ok "flange.h declares $(wc -l < "$T/declared") functions" \
  || bad "too few declarations parsed from flange.h: $(wc -l < "$T/declared_core")"

exported() { nm -D --defined-only "$1" | awk '{print $3}' | sort; }
exported "$core" > "$T/core"
exported "$plot" > "$T/plot"

if cmp -s "$T/core" "$T/declared_core"; then ok "libflange.so exports exactly flange.h's functions"
else bad "libflange.so exports differ from flange.h (< exported, > declared):"; diff "$T/core" "$T/declared_core"; fi
if cmp -s "$T/plot" "$T/declared_plot"; then ok "libflange-plot.so exports exactly $(tr '\n' ' ' < "$T/plot")"
else bad "libflange-plot.so exports differ (< exported, > declared):"; diff "$T/plot" "$T/declared_plot"; fi

# only functions (T), no data (D, B, R) of either library
data=$(nm -D --defined-only "$core" "$plot" | awk 'NF == 3 && $2 != "T" {print $3}')
[ -z "$data" ] && ok "no data symbols exported" || bad "data symbols exported: $data"
# the internal helpers exist in the static library, but are not exported
nm "$FLANGE_BUILD/libflange.a" 2>/dev/null | grep -q ' T fl_test_alloc_fail$' && ok "fl_test_alloc_fail is in libflange.a" \
  || bad "fl_test_alloc_fail missing from libflange.a"
grep -q '^fl_test_alloc_fail$' "$T/core" && bad "fl_test_alloc_fail exported" || ok "fl_test_alloc_fail not exported"

# PLplot is a dependency of the plot library only
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
needed "$core" | grep -q plplot && bad "libflange.so needs PLplot: $(needed "$core" | tr '\n' ' ')" \
  || ok "libflange.so does not need PLplot"
ldd "$core" 2>/dev/null | grep -q plplot && bad "libflange.so loads PLplot indirectly" || ok "ldd libflange.so: no PLplot"
needed "$plot" | grep -q '^libplplot' && ok "libflange-plot.so needs PLplot" || bad "libflange-plot.so does not need PLplot"
needed "$plot" | grep -q '^libflange\.so' && ok "libflange-plot.so needs libflange.so" \
  || bad "libflange-plot.so does not link libflange.so"

# a program that uses the simulator through the shared library runs
# without the plot library
cat > "$T/v.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "flange.h"
int main(void)
{
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_new("M");
    int rc = fl_model_add(m, "Mass", "mass", d);
    printf("%s %d %d\n", fl_version(), fl_version_number(), rc);
    fl_model_free(m);
    fl_diag_free(d);
    return strcmp(fl_version(), FLANGE_VERSION) != 0 || fl_version_number() != FLANGE_VERSION_NUMBER;
}
C
if cc -std=c11 ${FLANGE_CFLAGS:-} -I"$FLANGE_SRC/include" -o "$T/v" "$T/v.c" -L"$FLANGE_BUILD" -lflange \
     -Wl,-rpath,"$FLANGE_BUILD" 2> "$T/cc.err"; then
  out=$("$T/v") && ok "a program linked with -lflange alone runs: $out" || bad "program against libflange.so: $out"
  needed "$T/v" | grep -q plplot && bad "the program needs PLplot" || ok "the program does not need PLplot"
else
  bad "cannot build against libflange.so: $(cat "$T/cc.err")"
fi
[ "$fails" -eq 0 ] || exit 1
