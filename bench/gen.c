/* gen.c - writes the scalable benchmark models as Modelica text:
 *   gen chain N      the wagon chain of chain.h
 *   gen hosc N       ScalableTestSuite's HarmonicOscillator from flange components:
 *                    N masses (1 kg) joined by springs (10 N/m), mass 1 starting at s = N
 *   gen hoscnet N    its HarmonicOscillatorNetwork: each mass on a spring to a
 *                    massless node; the nodes joined by springs, both ends to ground
 *   gen chain-user N the wagon chain with its coupler written as equations (a user
 *                    model extending PartialCompliantWithRelativeStates)
 *   gen chain-array N the wagon chain written with component arrays and for loops
 *   gen fricchain N  the friction chain: N masses (1 kg) on SupportFriction
 *                    (Coulomb 4..6 N rising along the chain, break-away peak 1.2,
 *                    every mass), neighbours joined by spring-dampers, each
 *                    mass pushed by the same 8 N, 0.5 Hz sine force: every
 *                    mass sticks and slips at its own instants; 2 s
 *   gen bounce N     N independent bouncing bodies: each a mass (1 kg)
 *                    between two RESTITUTION stops (HardStop, cor 0.8, gap
 *                    +-0.01 m) on the one Fixed ground, each driven by its own
 *                    Sine force (amplitude 20..36 N, 4..9 Hz, own phase); 0.5 s
 *   gen bounce-coupled N  the same bodies, neighbours joined by a weak
 *                    SpringDamper (1 N/m, 0.01 N s/m): one coupled group
 *                    moving practically as the independent bodies do
 * Output on stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"

#define MTC "Modelica.Mechanics.Translational.Components."

static void chain(long n)
{
    printf("model Chain \"%ld wagons with couplers and buffers, the first pushed by a force step\"\n", n);
    printf("  Modelica.Mechanics.Translational.Sources.ForceStep push(stepForce=%g, offsetForce=0, startTime=%g);\n",
           CHAIN_F, CHAIN_T_STEP);
    for (long i = 1; i <= n; i++) {
        printf("  " MTC "Mass m%ld(m=%g, s(fixed=true), v(fixed=true));\n", i, CHAIN_M);
        if (i < n) {
            printf("  " MTC "SpringDamper c%ld(c=%g, d=%g);\n", i, CHAIN_C, CHAIN_D);
            printf("  Flange.Components.HardStop b%ld(upper_bnd=%g, lower_bnd=%g, stiff_up=%g, stiff_low=%g, "
                   "D_up=%g, D_low=%g);\n",
                   i, CHAIN_GAP, -CHAIN_GAP, CHAIN_K, CHAIN_K, CHAIN_DB, CHAIN_DB);
        }
    }
    printf("equation\n  connect(push.flange, m1.flange_a);\n");
    for (long i = 1; i < n; i++) {
        printf("  connect(m%ld.flange_b, c%ld.flange_a);\n  connect(c%ld.flange_b, m%ld.flange_a);\n", i, i, i, i + 1);
        printf("  connect(m%ld.flange_b, b%ld.C);\n  connect(b%ld.R, m%ld.flange_a);\n", i, i, i, i + 1);
    }
    printf("  annotation(experiment(StopTime=%g, Interval=%g, Tolerance=%g));\nend Chain;\n", CHAIN_STOP,
           CHAIN_STOP / 500, CHAIN_RTOL);
}

/* The chain's coupler as a user writes it: the same force law as the
 * built-in SpringDamper, on the same interface. */
static void chain_user(long n)
{
    printf("model ChainUser \"%ld wagons with user-written couplers and buffers\"\n", n);
    printf("  model Coupler \"spring and damper in parallel, written as equations\"\n"
           "    extends Modelica.Mechanics.Translational.Interfaces.PartialCompliantWithRelativeStates;\n"
           "    parameter Real c \"spring constant\";\n"
           "    parameter Real d \"damping constant\";\n"
           "  equation\n"
           "    f = c*s_rel + d*v_rel;\n"
           "  end Coupler;\n");
    printf("  Modelica.Mechanics.Translational.Sources.ForceStep push(stepForce=%g, offsetForce=0, startTime=%g);\n",
           CHAIN_F, CHAIN_T_STEP);
    for (long i = 1; i <= n; i++) {
        printf("  " MTC "Mass m%ld(m=%g, s(fixed=true), v(fixed=true));\n", i, CHAIN_M);
        if (i < n) {
            printf("  Coupler c%ld(c=%g, d=%g);\n", i, CHAIN_C, CHAIN_D);
            printf("  Flange.Components.HardStop b%ld(upper_bnd=%g, lower_bnd=%g, stiff_up=%g, stiff_low=%g, "
                   "D_up=%g, D_low=%g);\n",
                   i, CHAIN_GAP, -CHAIN_GAP, CHAIN_K, CHAIN_K, CHAIN_DB, CHAIN_DB);
        }
    }
    printf("equation\n  connect(push.flange, m1.flange_a);\n");
    for (long i = 1; i < n; i++) {
        printf("  connect(m%ld.flange_b, c%ld.flange_a);\n  connect(c%ld.flange_b, m%ld.flange_a);\n", i, i, i, i + 1);
        printf("  connect(m%ld.flange_b, b%ld.C);\n  connect(b%ld.R, m%ld.flange_a);\n", i, i, i, i + 1);
    }
    printf("  annotation(experiment(StopTime=%g, Interval=%g, Tolerance=%g));\nend ChainUser;\n", CHAIN_STOP,
           CHAIN_STOP / 500, CHAIN_RTOL);
}

/* The chain in a few lines: arrays of components, connections in a loop. */
static void chain_array(long n)
{
    printf("model ChainArray \"%ld wagons with couplers and buffers, written with arrays\"\n", n);
    printf("  parameter Integer N = %ld;\n", n);
    printf("  Modelica.Mechanics.Translational.Sources.ForceStep push(stepForce=%g, offsetForce=0, startTime=%g);\n",
           CHAIN_F, CHAIN_T_STEP);
    printf("  " MTC "Mass m[N](each m=%g, each s(fixed=true), each v(fixed=true));\n", CHAIN_M);
    printf("  " MTC "SpringDamper c[N - 1](each c=%g, each d=%g);\n", CHAIN_C, CHAIN_D);
    printf("  Flange.Components.HardStop b[N - 1](each upper_bnd=%g, each lower_bnd=%g, each stiff_up=%g, "
           "each stiff_low=%g, each D_up=%g, each D_low=%g);\n",
           CHAIN_GAP, -CHAIN_GAP, CHAIN_K, CHAIN_K, CHAIN_DB, CHAIN_DB);
    printf("equation\n  connect(push.flange, m[1].flange_a);\n");
    printf("  for i in 1:N - 1 loop\n"
           "    connect(m[i].flange_b, c[i].flange_a);\n    connect(c[i].flange_b, m[i + 1].flange_a);\n"
           "    connect(m[i].flange_b, b[i].C);\n    connect(b[i].R, m[i + 1].flange_a);\n"
           "  end for;\n");
    printf("  annotation(experiment(StopTime=%g, Interval=%g, Tolerance=%g));\nend ChainArray;\n", CHAIN_STOP,
           CHAIN_STOP / 500, CHAIN_RTOL);
}

/* The friction chain (event-heavy): every mass's friction differs a little
 * (Coulomb force from 4 N at the first to 6 N at the last, peak 1.2), so that no two masses
 * stick or break away at the same instant. */
static void fricchain(long n)
{
    printf("model FrictionChain \"%ld masses on friction supports joined by spring-dampers, all driven by a sine "
           "force\"\n",
           n);
    printf("  Modelica.Blocks.Sources.Sine sine(amplitude=8, f=0.5);\n");
    for (long i = 1; i <= n; i++) {
        double fc = 4 + 2.0 * (double)(i - 1) / (double)(n - 1);
        printf("  " MTC "Mass m%ld(m=1, s(fixed=true), v(fixed=true));\n", i);
        printf("  " MTC "SupportFriction fr%ld(f_pos=[0, %.4g; 1, %.4g; 10, %.4g], peak=1.2);\n", i, fc, fc + 0.5,
               fc + 2);
        printf("  Modelica.Mechanics.Translational.Sources.Force f%ld;\n", i);
        if (i < n) printf("  " MTC "SpringDamper c%ld(c=100, d=1);\n", i);
    }
    printf("equation\n");
    for (long i = 1; i <= n; i++) {
        printf("  connect(m%ld.flange_b, fr%ld.flange_a);\n  connect(f%ld.flange, m%ld.flange_a);\n"
               "  connect(sine.y, f%ld.f);\n",
               i, i, i, i, i);
        if (i < n)
            printf("  connect(m%ld.flange_b, c%ld.flange_a);\n  connect(c%ld.flange_b, m%ld.flange_a);\n", i, i, i,
                   i + 1);
    }
    printf("  annotation(experiment(StopTime=2, Interval=0.004, Tolerance=1e-6));\nend FrictionChain;\n");
}

/* N independent bouncing bodies: nothing couples them but the ground
 * (coupled: neighbours joined by weak spring-dampers). */
static void bounce(long n, int coupled)
{
    printf("model Bounce \"%ld %s bodies between restitution stops, each with its own sine force\"\n", n,
           coupled ? "weakly coupled" : "independent");
    printf("  " MTC "Fixed ground;\n");
    for (long i = 1; i <= n; i++) {
        double amp = 20 + (double)(i % 17), f = 4 + 5.0 * (double)(i % 13) / 12, ph = 0.1 * (double)(i % 31);
        printf("  " MTC "Mass m%ld(m=1, s(fixed=true), v(fixed=true));\n", i);
        printf("  Flange.Components.HardStop hs%ld(hs_model=Flange.Types.HardStopModel.RESTITUTION, cor=0.8, "
               "upper_bnd=0.01, lower_bnd=-0.01);\n",
               i);
        printf("  Modelica.Mechanics.Translational.Sources.Force f%ld;\n", i);
        printf("  Modelica.Blocks.Sources.Sine sine%ld(amplitude=%g, f=%.6g, phase=%g);\n", i, amp, f, ph);
        if (coupled && i < n) printf("  " MTC "SpringDamper sd%ld(c=1, d=0.01);\n", i);
    }
    printf("equation\n");
    for (long i = 1; i <= n; i++)
        printf("  connect(ground.flange, hs%ld.C);\n  connect(hs%ld.R, m%ld.flange_a);\n"
               "  connect(f%ld.flange, m%ld.flange_b);\n  connect(sine%ld.y, f%ld.f);\n",
               i, i, i, i, i, i, i);
    for (long i = 1; coupled && i < n; i++)
        printf("  connect(m%ld.flange_b, sd%ld.flange_a);\n  connect(sd%ld.flange_b, m%ld.flange_a);\n", i, i, i, i + 1);
    printf("  annotation(experiment(StopTime=0.5, Interval=0.001, Tolerance=1e-6));\nend Bounce;\n");
}

static void hosc(long n)
{
    printf("model HarmonicOscillator \"%ld masses joined by springs\"\n", n);
    for (long i = 1; i <= n; i++) {
        printf("  " MTC "Mass m%ld(m=1, s(start=%ld, fixed=true), v(fixed=true));\n", i, i == 1 ? n : 0);
        if (i < n) printf("  " MTC "Spring k%ld(c=10);\n", i);
    }
    printf("equation\n");
    for (long i = 1; i < n; i++)
        printf("  connect(m%ld.flange_b, k%ld.flange_a);\n  connect(k%ld.flange_b, m%ld.flange_a);\n", i, i, i, i + 1);
    printf("  annotation(experiment(StopTime=10));\nend HarmonicOscillator;\n");
}

static void hoscnet(long n)
{
    printf("model HarmonicOscillatorNetwork \"%ld masses on a network of massless springs\"\n", n);
    printf("  " MTC "Fixed ground;\n");
    for (long i = 1; i <= n; i++) {
        printf("  " MTC "Mass m%ld(m=1, s(start=%ld, fixed=true), v(fixed=true));\n", i, i == 1 ? n : 0);
        printf("  " MTC "Spring km%ld(c=10);\n", i);
        printf("  " MTC "Spring ks%ld(c=10);\n", i); /* node i-1 (or ground) to node i */
    }
    printf("  " MTC "Spring kend(c=10);\n");
    printf("equation\n");
    for (long i = 1; i <= n; i++) {
        printf("  connect(m%ld.flange_b, km%ld.flange_a);\n", i, i);
        if (i == 1) printf("  connect(ground.flange, ks1.flange_a);\n");
        else printf("  connect(km%ld.flange_b, ks%ld.flange_a);\n", i - 1, i);
        printf("  connect(ks%ld.flange_b, km%ld.flange_b);\n", i, i);
    }
    printf("  connect(km%ld.flange_b, kend.flange_a);\n  connect(kend.flange_b, ground.flange);\n", n);
    printf("  annotation(experiment(StopTime=10));\nend HarmonicOscillatorNetwork;\n");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gen chain|chain-user|chain-array|hosc|hoscnet|fricchain|bounce|bounce-coupled N\n");
        return 2;
    }
    long n = atol(argv[2]);
    if (n < 2) {
        fprintf(stderr, "gen: N must be at least 2\n");
        return 2;
    }
    if (strcmp(argv[1], "chain") == 0) chain(n);
    else if (strcmp(argv[1], "hosc") == 0) hosc(n);
    else if (strcmp(argv[1], "hoscnet") == 0) hoscnet(n);
    else if (strcmp(argv[1], "chain-user") == 0) chain_user(n);
    else if (strcmp(argv[1], "chain-array") == 0) chain_array(n);
    else if (strcmp(argv[1], "fricchain") == 0) fricchain(n);
    else if (strcmp(argv[1], "bounce") == 0) bounce(n, 0);
    else if (strcmp(argv[1], "bounce-coupled") == 0) bounce(n, 1);
    else {
        fprintf(stderr, "gen: unknown model '%s'\n", argv[1]);
        return 2;
    }
    return 0;
}
