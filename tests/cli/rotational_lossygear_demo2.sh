#!/usr/bin/env bash
# The MSL's LossyGearDemo2 (examples/pending/LossyGearDemo2.mo): a LossyGear
# and a BearingFriction stuck on one shaft at once. The motion, Inertia2.phi
# and Inertia2.w, against the MSL 4.1.0 reference in the 2e-3 tube; the mode
# signals of the reference are not compared (Dymola's residual speeds of
# +-5e-11 rad/s while stuck count as motion in the MSL's mode equation, and
# its split of the holding torque between the two is its solver's, see the
# model's header). The stops and break-aways of the shaft are checked
# against the reference's own event times (which follow from the physics:
# the forward break-away when the drive exceeds the gear's and the bearing's
# limits together):
#   at rest 0.06359 .. 0.23037 s and 0.30831 .. 0.47274 s.
# Skips (77) without ../shared.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"
ref="${FLANGE_SHARED}/validation/rotational/LossyGearDemo2"
if [ ! -f "$ref/reference.csv" ]; then
  echo "SKIP: $ref/reference.csv not found (../shared is absent)"
  exit 77
fi
printf 'time\nInertia2.phi\nInertia2.w\n' > "$T/signals.txt"
if "$FLANGE" simulate "$FLANGE_SRC/examples/pending/LossyGearDemo2.mo" -o "$T/demo2.csv" --quiet 2> "$T/demo2.err"; then
  if "$FLANGE" compare "$T/demo2.csv" "$ref/reference.csv" --signals "$T/signals.txt" --tol 2e-3 > "$T/cmp.out" 2>&1; then
    ok "LossyGearDemo2: Inertia2.phi and Inertia2.w inside the 2e-3 tube"
  else
    bad "LossyGearDemo2: Inertia2.phi and Inertia2.w inside the 2e-3 tube"; cat "$T/cmp.out"
  fi
  values "LossyGearDemo2: the shaft at rest between its stops and break-aways" demo2 <<'PY'
w = col("Inertia2.w")
rest = [(0.0640, 0.2300), (0.3090, 0.4720)]
for a, b in rest:
    m = max(abs(x) for tt, x in zip(t, w) if a <= tt <= b)
    near(m, 0, 0, "Inertia2.w at rest in [%g, %g]" % (a, b))
for tt in (0.0630, 0.2310, 0.3075, 0.4735):
    i = min(range(len(t)), key=lambda k: abs(t[k] - tt))
    if abs(w[i]) == 0:
        fails.append("Inertia2.w is 0 at t = %g, where the shaft moves" % t[i])
PY
else
  bad "LossyGearDemo2: the simulation failed"; cat "$T/demo2.err"
fi
[ "$fails" -eq 0 ]
