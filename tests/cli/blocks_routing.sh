#!/usr/bin/env bash
# Modelica.Blocks.Routing (src/model/msl/Modelica.Blocks.Routing.mo) and
# vectors of signal connectors in connect(): an element to a scalar
# (connect(c.y, mux.u2[1])) and whole vectors element by element between
# user blocks, a block's own vector connectors, component arrays and a
# library vector (CombiTimeTable.y). Multiplex / DeMultiplex round trips
# give back their inputs; Replicator, RealPassThrough, ExtractSignal their
# closed forms; vectors of different sizes are refused with a message.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/equations.sh"

# ---- u = 2 sin 2 pi t, c = 3, r = t; the table's columns 1 + 2t, 2 - t
model routing <<'EOF'
model Routing
  import Modelica.Blocks.Routing;
  Modelica.Blocks.Sources.Sine s(amplitude = 2, f = 1);
  Modelica.Blocks.Sources.Constant c(k = 3);
  Modelica.Blocks.Sources.Ramp r(height = 1, duration = 1);
  Modelica.Blocks.Sources.CombiTimeTable table(table = [0, 1, 2; 1, 3, 1]);
  Routing.RealPassThrough pass;
  Routing.Replicator rep(nout = 3);
  Routing.Multiplex2 mux2(n2 = 3);
  Routing.DeMultiplex2 demux2(n1 = 3, n2 = 1);
  Routing.Multiplex3 mux3;
  Routing.DeMultiplex3 demux3;
  Routing.Multiplex4 mux4(n4 = 2);
  Routing.DeMultiplex4 demux4(n4 = 2);
  Routing.Multiplex5 mux5;
  Routing.DeMultiplex5 demux5;
  Routing.Multiplex6 mux6(n1 = 0, n6 = 2);
  Routing.DeMultiplex6 demux6(n1 = 0, n6 = 2);
  Routing.Multiplex mux(n = 2);
  Routing.DeMultiplex demux(n = 2);
  Routing.ExtractSignal extract(nin = 4, nout = 3, extract = {4, 1, 1});
  Routing.ExtractSignal extractDefault(nin = 2, nout = 2);
  Routing.DeMultiplex2 tableDemux;
equation
  connect(r.y, pass.u);
  connect(c.y, rep.u);
  // Multiplex2: u1 = t, u2 = {3, 3, 3}; and back
  connect(pass.y, mux2.u1[1]);
  connect(rep.y, mux2.u2);
  connect(mux2.y, demux2.u);
  // Multiplex3 .. 6 of the three signals and the replicas; and back
  connect(s.y, mux3.u1[1]);
  connect(c.y, mux3.u2[1]);
  connect(r.y, mux3.u3[1]);
  connect(mux3.y, demux3.u);
  connect(s.y, mux4.u1[1]);
  connect(c.y, mux4.u2[1]);
  connect(r.y, mux4.u3[1]);
  connect(mux3.y[1:2], mux4.u4);
  connect(mux4.y, demux4.u);
  connect(s.y, mux5.u1[1]);
  connect(c.y, mux5.u2[1]);
  connect(r.y, mux5.u3[1]);
  connect(s.y, mux5.u4[1]);
  connect(c.y, mux5.u5[1]);
  connect(mux5.y, demux5.u);
  connect(s.y, mux6.u2[1]);
  connect(c.y, mux6.u3[1]);
  connect(r.y, mux6.u4[1]);
  connect(s.y, mux6.u5[1]);
  connect(demux4.y4, mux6.u6);
  connect(mux6.y, demux6.u);
  connect(s.y, mux.u[1]);
  connect(r.y, mux.u[2]);
  connect(mux.y, demux.u);
  connect(mux4.y[2:5], extract.u);
  connect(demux.y, extractDefault.u);
  connect(table.y, tableDemux.u);
  annotation(experiment(StopTime = 1, Interval = 0.01));
end Routing;
EOF
sim routing && values "RealPassThrough, Replicator, Multiplex2..6, DeMultiplex2..6, Multiplex, DeMultiplex, ExtractSignal" routing <<'PY'
u = lambda x: 2*math.sin(2*math.pi*x)
want = {"pass.y": lambda x: x}
for i in (1, 2, 3):
    want["rep.y[%d]" % i] = lambda x: 3
for i, f in enumerate([lambda x: x, lambda x: 3, lambda x: 3, lambda x: 3]):
    want["mux2.y[%d]" % (i + 1)] = f
want.update({"demux2.y1[1]": lambda x: x, "demux2.y1[2]": lambda x: 3, "demux2.y1[3]": lambda x: 3, "demux2.y2[1]": lambda x: 3})
three = [u, lambda x: 3, lambda x: x]
for i in range(3):
    want["mux3.y[%d]" % (i + 1)] = three[i]
    want["demux3.y%d[1]" % (i + 1)] = three[i]
four = three + [u, lambda x: 3]
for i in range(5):
    want["mux4.y[%d]" % (i + 1)] = four[i]
want.update({"demux4.y1[1]": u, "demux4.y2[1]": lambda x: 3, "demux4.y3[1]": lambda x: x,
             "demux4.y4[1]": u, "demux4.y4[2]": lambda x: 3})
five = three + [u, lambda x: 3]
for i in range(5):
    want["mux5.y[%d]" % (i + 1)] = five[i]
    want["demux5.y%d[1]" % (i + 1)] = five[i]
six = [u, lambda x: 3, lambda x: x, u, u, lambda x: 3]
for i in range(6):
    want["mux6.y[%d]" % (i + 1)] = six[i]
want.update({"demux6.y2[1]": u, "demux6.y3[1]": lambda x: 3, "demux6.y4[1]": lambda x: x, "demux6.y5[1]": u,
             "demux6.y6[1]": u, "demux6.y6[2]": lambda x: 3})
want.update({"mux.y[1]": u, "mux.y[2]": lambda x: x, "demux.y[1]": u, "demux.y[2]": lambda x: x})
# extract = {4, 1, 1} of mux4.y[2:5] = {3, t, u, 3}
want.update({"extract.y[1]": lambda x: 3, "extract.y[2]": lambda x: 3, "extract.y[3]": lambda x: 3})
want.update({"extractDefault.y[1]": u, "extractDefault.y[2]": lambda x: x})
want.update({"tableDemux.y1[1]": lambda x: 1 + 2*x, "tableDemux.y2[1]": lambda x: 2 - x})
for name, f in sorted(want.items()):
    near(worst(name, f), 0, 1e-10, "worst error of " + name)
check(not any(h.startswith("demux6.y1[") or h.startswith("mux6.u1[") for h in head), "an empty vector has columns")
PY

# ---- a block of your own with vector connectors, inside a composite that
# passes whole vectors through its own connectors, in an array of
# components connected in a for-loop: y = 2 u element by element
model nested <<'EOF'
model Nested
  block Double "y = 2 u"
    parameter Integer n = 2;
    Modelica.Blocks.Interfaces.RealInput u[n];
    Modelica.Blocks.Interfaces.RealOutput y[n];
  equation
    y = 2*u;
  end Double;
  model Stage "a Double, connected through the stage's own vectors"
    Modelica.Blocks.Interfaces.RealInput u[2];
    Modelica.Blocks.Interfaces.RealOutput y[2];
    Double d;
  equation
    connect(u, d.u);
    connect(d.y, y);
  end Stage;
  Modelica.Blocks.Sources.Sine s(amplitude = 2, f = 1);
  Modelica.Blocks.Sources.Constant c(k = 3);
  Modelica.Blocks.Routing.Multiplex2 mux;
  Stage stage[3];
  Modelica.Blocks.Routing.DeMultiplex2 demux;
equation
  connect(s.y, mux.u1[1]);
  connect(c.y, mux.u2[1]);
  connect(mux.y, stage[1].u);
  for i in 1:2 loop
    connect(stage[i].y, stage[i + 1].u);
  end for;
  connect(stage[3].y, demux.u);
  annotation(experiment(StopTime = 1, Interval = 0.01));
end Nested;
EOF
sim nested && values "whole vectors through a composite's own connectors and an array of components: 8 u" nested <<'PY'
near(worst("demux.y1[1]", lambda x: 16*math.sin(2*math.pi*x)), 0, 1e-9, "worst error of demux.y1[1]")
near(worst("demux.y2[1]", lambda x: 24), 0, 0, "worst error of demux.y2[1]")
near(worst("stage[2].d.y[2]", lambda x: 12), 0, 0, "worst error of stage[2].d.y[2]")
PY

# ---- vectors of different sizes, and a scalar for a vector
model sizes <<'EOF'
model Sizes
  Modelica.Blocks.Sources.Constant c(k = 3);
  Modelica.Blocks.Routing.Multiplex2 mux(n2 = 2);
  Modelica.Blocks.Routing.DeMultiplex2 demux;
equation
  connect(c.y, mux.u1[1]);
  connect(c.y, mux.u2);
  connect(mux.y, demux.u);
end Sizes;
EOF
expect sizes 1 -- "sizes.mo:7:3: error: cannot connect c.y (1 signal) to mux.u2 (2 signals): the sizes differ
sizes.mo:8:3: error: cannot connect mux.y (3 signals) to demux.u (2 signals): the sizes differ"

# ---- Extractor with its index from an IntegerStep: u[1] = 1 before 0.5, u[2] = 2 after
model extractor <<'EOF'
model Extract
  Modelica.Blocks.Sources.Constant c1(k = 1);
  Modelica.Blocks.Sources.Constant c2(k = 2);
  Modelica.Blocks.Sources.IntegerStep idx(height = 1, offset = 1, startTime = 0.5);
  Modelica.Blocks.Routing.Extractor ex(nin = 2);
equation
  connect(c1.y, ex.u[1]);
  connect(c2.y, ex.u[2]);
  connect(idx.y, ex.index);
  annotation(experiment(StopTime = 1));
end Extract;
EOF
sim extractor && values "Extractor picks u[index]: 1 before t = 0.5, 2 after" extractor <<'PY'
near(worst("ex.y", lambda t: 1, 0, 0.49), 0, 0, "ex.y before the step")
near(worst("ex.y", lambda t: 2, 0.51, 1), 0, 0, "ex.y after the step")
near(jumps("ex.y")[0], 0.5, 1e-12, "the switch")
PY

exit $((fails > 0))
