/* test_functions.c - user functions (symbolic/func.h): values against
 * closed forms, forward-mode derivatives exactly and against central
 * differences, the limits and run-time errors, located compile errors,
 * concurrent calls, the programs' callback and parameter expressions. */
#include <pthread.h>

#include "check.h"
#include "model/value.h"
#include "parse/ast.h"
#include "symbolic/func.h"
#include "symbolic/prog.h"
#include "symbolic/sym.h"

static const char *lib =
    "package P\n"                                                   /* 1 */
    "  constant Real k = 2.5;\n"                                    /* 2 */
    "  function horner \"c[1]*x^(n-1) + ... + c[n]\"\n"              /* 3 */
    "    input Real x;\n"                                           /* 4 */
    "    input Real c[:];\n"                                        /* 5 */
    "    output Real y;\n"                                          /* 6 */
    "  algorithm\n"                                                 /* 7 */
    "    y := 0;\n"                                                 /* 8 */
    "    for i in 1:size(c, 1) loop\n"                              /* 9 */
    "      y := y*x + c[i];\n"                                      /* 10 */
    "    end for;\n"                                                /* 11 */
    "  end horner;\n"                                               /* 12 */
    "  function factorial\n"                                        /* 13 */
    "    input Integer n;\n"                                        /* 14 */
    "    output Integer f = 1;\n"                                   /* 15 */
    "  algorithm\n"                                                 /* 16 */
    "    for i in 2:n loop\n"                                       /* 17 */
    "      f := f*i;\n"                                             /* 18 */
    "    end for;\n"                                                /* 19 */
    "  end factorial;\n"                                            /* 20 */
    "  function newtonSqrt\n"                                       /* 21 */
    "    input Real a;\n"                                           /* 22 */
    "    input Real tol = 1e-15;\n"                                 /* 23 */
    "    output Real x;\n"                                          /* 24 */
    "  protected\n"                                                 /* 25 */
    "    Real dx;\n"                                                /* 26 */
    "  algorithm\n"                                                 /* 27 */
    "    assert(a >= 0, \"newtonSqrt: a = \" + String(a) + \" is negative\");\n" /* 28 */
    "    x := if a > 1 then a else 1;\n"                            /* 29 */
    "    dx := 1;\n"                                                /* 30 */
    "    while abs(dx) > tol*x loop\n"                              /* 31 */
    "      dx := (x*x - a)/(2*x);\n"                                /* 32 */
    "      x := x - dx;\n"                                          /* 33 */
    "    end while;\n"                                              /* 34 */
    "  end newtonSqrt;\n"                                           /* 35 */
    "  function drag\n"                                             /* 36 */
    "    input Real v;\n"                                           /* 37 */
    "    input Real c = k;\n"                                       /* 38 */
    "    output Real f;\n"                                          /* 39 */
    "  algorithm\n"                                                 /* 40 */
    "    f := c*v*abs(v);\n"                                        /* 41 */
    "  end drag;\n"                                                 /* 42 */
    "  function polar\n"                                            /* 43 */
    "    input Real x;\n"                                           /* 44 */
    "    input Real y;\n"                                           /* 45 */
    "    output Real r;\n"                                          /* 46 */
    "    output Real phi;\n"                                        /* 47 */
    "  algorithm\n"                                                 /* 48 */
    "    r := sqrt(x^2 + y^2);\n"                                   /* 49 */
    "    phi := Modelica.Math.atan2(y, x);\n"                       /* 50 */
    "  end polar;\n"                                                /* 51 */
    "  function rotate \"(x, y) turned by alpha, through polar coordinates\"\n" /* 52 */
    "    input Real x;\n"                                           /* 53 */
    "    input Real y;\n"                                           /* 54 */
    "    input Real alpha;\n"                                       /* 55 */
    "    output Real u;\n"                                          /* 56 */
    "    output Real w;\n"                                          /* 57 */
    "  protected\n"                                                 /* 58 */
    "    Real r;\n"                                                 /* 59 */
    "    Real phi;\n"                                               /* 60 */
    "  algorithm\n"                                                 /* 61 */
    "    (r, phi) := polar(x, y);\n"                                /* 62 */
    "    u := r*cos(phi + alpha);\n"                                /* 63 */
    "    (, w) := polar(u, r*sin(phi + alpha));\n"                  /* 64 */
    "    w := r*sin(w);\n"                                          /* 65 */
    "  end rotate;\n"                                               /* 66 */
    "  function norm2\n"                                            /* 67 */
    "    input Real v[:];\n"                                        /* 68 */
    "    output Real n;\n"                                          /* 69 */
    "  algorithm\n"                                                 /* 70 */
    "    n := sqrt(sum(v[i]^2 for i in 1:size(v, 1)));\n"           /* 71 */
    "  end norm2;\n"                                                /* 72 */
    "  function powers\n"                                           /* 73 */
    "    input Real x;\n"                                           /* 74 */
    "    output Real p[2];\n"                                       /* 75 */
    "  algorithm\n"                                                 /* 76 */
    "    p := {x, x^2};\n"                                          /* 77 */
    "  end powers;\n"                                               /* 78 */
    "  function fib\n"                                              /* 79 */
    "    input Integer n;\n"                                        /* 80 */
    "    output Integer y;\n"                                       /* 81 */
    "  algorithm\n"                                                 /* 82 */
    "    y := if n < 2 then n else fib(n - 1) + fib(n - 2);\n"      /* 83 */
    "  end fib;\n"                                                  /* 84 */
    "  function depth\n"                                            /* 85 */
    "    input Integer n;\n"                                        /* 86 */
    "    output Integer y;\n"                                       /* 87 */
    "  algorithm\n"                                                 /* 88 */
    "    y := if n <= 0 then 0 else depth(n - 1) + 1;\n"            /* 89 */
    "  end depth;\n"                                                /* 90 */
    "  function forever\n"                                          /* 91 */
    "    input Real x;\n"                                           /* 92 */
    "    output Real y = x;\n"                                      /* 93 */
    "  algorithm\n"                                                 /* 94 */
    "    while y >= x loop\n"                                       /* 95 */
    "      y := y + 1;\n"                                           /* 96 */
    "    end while;\n"                                              /* 97 */
    "  end forever;\n"                                              /* 98 */
    "  function pick\n"                                             /* 99 */
    "    input Real v[:];\n"                                        /* 100 */
    "    input Integer i;\n"                                        /* 101 */
    "    output Real y;\n"                                          /* 102 */
    "  algorithm\n"                                                 /* 103 */
    "    y := v[i] + v[end];\n"                                     /* 104 */
    "  end pick;\n"                                                 /* 105 */
    "  function stats \"mean and variance, with a matrix and a vector product\"\n" /* 106 */
    "    input Real x[:];\n"                                        /* 107 */
    "    output Real m;\n"                                          /* 108 */
    "    output Real s2;\n"                                         /* 109 */
    "  protected\n"                                                 /* 110 */
    "    Integer n = size(x, 1);\n"                                 /* 111 */
    "    Real d[size(x, 1)];\n"                                     /* 112 */
    "    Real A[2, n];\n"                                           /* 113 */
    "  algorithm\n"                                                 /* 114 */
    "    m := sum(x)/n;\n"                                          /* 115 */
    "    d := x - fill(m, n);\n"                                    /* 116 */
    "    s2 := d*d/n;\n"                                            /* 117 */
    "    A[1, :] := x;\n"                                           /* 118 */
    "    A[2, :] := ones(n);\n"                                     /* 119 */
    "    assert(sum(A*ones(n)) > -1e300, \"never\");\n"            /* 120 */
    "  end stats;\n"                                                /* 121 */
    "  function matvec\n"                                           /* 122 */
    "    input Real M[2, 2];\n"                                     /* 123 */
    "    input Real v[2];\n"                                        /* 124 */
    "    output Real w[2];\n"                                       /* 125 */
    "  algorithm\n"                                                 /* 126 */
    "    w := M*v + transpose(M)*v - [1, 0; 0, 1]*v;\n"             /* 127 */
    "  end matvec;\n"                                               /* 128 */
    "  function piecewise\n"                                        /* 129 */
    "    input Real x;\n"                                           /* 130 */
    "    output Real y;\n"                                          /* 131 */
    "  algorithm\n"                                                 /* 132 */
    "    y := max(x, 0)^2 + min(x, 1) - 3*noEvent(abs(x - 2));\n"   /* 133 */
    "    if x > 5 then\n"                                           /* 134 */
    "      y := y + Modelica.Constants.pi*x;\n"                     /* 135 */
    "      return;\n"                                               /* 136 */
    "    elseif x < -5 then\n"                                      /* 137 */
    "      y := -y;\n"                                              /* 138 */
    "    end if;\n"                                                 /* 139 */
    "    for t in {0.5, 2.0} loop\n"                                /* 140 */
    "      if t > x then\n"                                         /* 141 */
    "        break;\n"                                              /* 142 */
    "      end if;\n"                                               /* 143 */
    "      y := y + exp(-t*x)*mod(x, 3) + sinh(x/10)*tanh(t);\n"   /* 144 */
    "    end for;\n"                                                /* 145 */
    "  end piecewise;\n"                                            /* 146 */
    "end P;\n";

typedef struct reg {
    fl_file_ast *file;
    fl_ufuncs *r;
    fl_ufunc_lex lex;
    fl_ufunc_scope scope;
    fl_diag *d;
} reg;

static void reg_open(reg *g, const char *text)
{
    g->d = fl_diag_new();
    g->file = fl_parse(text, "f.mo", g->d);
    g->r = fl_ufuncs_new();
    g->lex.file = g->file;
    g->lex.path = NULL;
    g->scope.ctx = &g->lex;
    g->scope.find_class = fl_ufunc_lex_find_class;
    g->scope.constant = fl_ufunc_lex_constant;
}

static void reg_close(reg *g)
{
    fl_ufuncs_free(g->r);
    free(g->lex.path);
    if (g->file) fl_file_free(g->file);
    fl_diag_free(g->d);
}

static void print_diag(const fl_diag *d)
{
    for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "  %s\n", fl_diag_text(d, i));
}

/* Register the function at path; -1 (and the messages printed) on errors. */
static int add(reg *g, const char *path)
{
    const char *p;
    const fl_class_ast *c = g->file ? fl_ufunc_lex_find_class(&g->lex, NULL, path, &p) : NULL;
    if (!c) return -1;
    char *full = strdup(p);
    int id = fl_ufuncs_add(g->r, c, full, &g->scope, g->d);
    free(full);
    return id;
}

/* y = f(in) with tangents din (room for 16 outputs); returns their number. */
static int call(reg *g, int id, const double *in, int nin, double *out, double *dout, const double *din)
{
    fl_ufunc_err err;
    int n = fl_ufunc_call(g->r, id, in, nin, out, 16, din, dout, &err);
    if (n < 0) fprintf(stderr, "  call failed: %s:%d:%d: %s\n", err.loc.file, err.loc.line, err.loc.col, err.msg);
    return n;
}

/* Output k of id at in, and its derivative along the unit vector of input j:
 * exact (forward mode) and by central differences. */
static void partial(reg *g, int id, const double *in, int nin, int k, int j, double *value, double *exact, double *fd)
{
    double x[16], out[16], dout[16], seed[16] = {0};
    memcpy(x, in, sizeof(double) * (size_t)nin);
    seed[j] = 1;
    call(g, id, x, nin, out, dout, seed);
    *value = out[k];
    *exact = dout[k];
    double h = 1e-6 * (fabs(in[j]) > 1 ? fabs(in[j]) : 1);
    x[j] = in[j] + h;
    call(g, id, x, nin, out, NULL, NULL);
    double up = out[k];
    x[j] = in[j] - h;
    call(g, id, x, nin, out, NULL, NULL);
    *fd = (up - out[k]) / (2 * h);
}

/* Every partial of every output against central differences. */
static void check_fd(reg *g, int id, const double *in, int nin, int nout, double tol)
{
    for (int k = 0; k < nout; k++)
        for (int j = 0; j < nin; j++) {
            double v, ex, fd;
            partial(g, id, in, nin, k, j, &v, &ex, &fd);
            CHECK_NEAR(ex, fd, tol * (1 + fabs(fd)));
        }
}

static int variant1(reg *g, int id, int k, int n)
{
    int dims[8][2] = {{0}};
    dims[k][0] = n;
    return fl_ufunc_variant(g->r, id, NULL, (const int(*)[2])dims, fl_noloc, g->d);
}

static void test_closed_forms(void)
{
    reg g;
    reg_open(&g, lib);
    CHECK(g.file != NULL);
    int horner = add(&g, "P.horner"), fact = add(&g, "P.factorial"), nsqrt = add(&g, "P.newtonSqrt");
    int drag = add(&g, "P.drag");
    CHECK(horner >= 0 && fact >= 0 && nsqrt >= 0 && drag >= 0);
    print_diag(g.d);
    CHECK(fl_diag_count(g.d) == 0);

    /* Horner: y = 2x^3 - 3x^2 + 0.5x + 7; dy/dx = 6x^2 - 6x + 0.5, dy/dc_i = x^(4-i) */
    int h4 = variant1(&g, horner, 1, 4);
    CHECK(h4 >= 0 && h4 != horner);
    CHECK(fl_ufunc_ninputs(g.r, h4) == 2);
    fl_ufarg a;
    CHECK(fl_ufunc_input(g.r, h4, 1, &a) == 0 && a.ndims == 1 && a.dim[0] == 4 && strcmp(a.name, "c") == 0);
    CHECK(fl_ufunc_input(g.r, horner, 1, &a) == 0 && a.dim[0] == -1);
    CHECK(variant1(&g, horner, 1, 4) == h4); /* equal variants share an id */
    double in[5] = {1.5, 2, -3, 0.5, 7}, v, ex, fd;
    double x = 1.5;
    partial(&g, h4, in, 5, 0, 0, &v, &ex, &fd);
    CHECK_NEAR(v, 2 * x * x * x - 3 * x * x + 0.5 * x + 7, 1e-14);
    CHECK_NEAR(ex, 6 * x * x - 6 * x + 0.5, 1e-14);
    for (int i = 1; i <= 4; i++) {
        partial(&g, h4, in, 5, 0, i, &v, &ex, &fd);
        CHECK_NEAR(ex, pow(x, 4 - i), 1e-14);
    }
    check_fd(&g, h4, in, 5, 1, 1e-8);

    /* factorial by a for loop (Integer): no tangent */
    double out[16], dout[16], n = 10, dn = 1;
    CHECK(call(&g, fact, &n, 1, out, dout, &dn) == 1);
    CHECK(out[0] == 3628800 && dout[0] == 0);
    n = 1;
    CHECK(call(&g, fact, &n, 1, out, NULL, NULL) == 1 && out[0] == 1);

    /* Newton's square root (a while loop): value and 1/(2 sqrt a); the tolerance defaults */
    int s1 = fl_ufunc_variant(g.r, nsqrt, (const unsigned char[]){1, 0}, NULL, fl_noloc, g.d);
    CHECK(s1 >= 0 && fl_ufunc_ninputs(g.r, s1) == 1);
    double as[] = {2, 0.25, 1e6, 1};
    for (int i = 0; i < 4; i++) {
        partial(&g, s1, &as[i], 1, 0, 0, &v, &ex, &fd);
        CHECK_REL(v, sqrt(as[i]), 1e-15);
        CHECK_REL(ex, 0.5 / sqrt(as[i]), 1e-14);
        CHECK_REL(ex, fd, 1e-7);
    }

    /* drag law f = c v |v|: df/dv = 2c|v|, df/dc = v|v|; c defaults to P.k = 2.5 */
    double vs[] = {3, -2, 0, 1e-3};
    for (int i = 0; i < 4; i++) {
        double dv[2] = {vs[i], 1.5};
        partial(&g, drag, dv, 2, 0, 0, &v, &ex, &fd);
        CHECK(v == 1.5 * vs[i] * fabs(vs[i]));
        CHECK(ex == 2 * 1.5 * fabs(vs[i]));
        partial(&g, drag, dv, 2, 0, 1, &v, &ex, &fd);
        CHECK(ex == vs[i] * fabs(vs[i]));
        check_fd(&g, drag, dv, 2, 1, 1e-5); /* at v = 0 the difference quotient is off by c*h */
    }
    int d1 = fl_ufunc_variant(g.r, drag, (const unsigned char[]){1, 0}, NULL, fl_noloc, g.d);
    double vv = -4;
    CHECK(call(&g, d1, &vv, 1, out, NULL, NULL) == 1 && out[0] == -2.5 * 16);
    CHECK(fl_ufunc_input(g.r, drag, 1, &a) == 0 && a.has_default == 1 && a.type == FL_UF_REAL);
    CHECK(fl_ufunc_noutputs(g.r, drag) == 1 && fl_ufunc_find(g.r, "P.drag") == drag);
    CHECK(strcmp(fl_ufunc_path(g.r, d1), "P.drag") == 0);
    reg_close(&g);
}

static void test_outputs_and_arrays(void)
{
    reg g;
    reg_open(&g, lib);
    int rotate = add(&g, "P.rotate"), polar = add(&g, "P.polar"), norm = add(&g, "P.norm2");
    int powers = add(&g, "P.powers"), stats = add(&g, "P.stats"), matvec = add(&g, "P.matvec");
    int pw = add(&g, "P.piecewise");
    CHECK(rotate >= 0 && polar >= 0 && norm >= 0 && powers >= 0 && stats >= 0 && matvec >= 0 && pw >= 0);
    print_diag(g.d);

    /* two outputs, used through tuple assignments from another function: a rotation */
    double out[16], dout[16];
    double in[3] = {3, 4, 0.3};
    CHECK(call(&g, polar, in, 2, out, NULL, NULL) == 2);
    CHECK_NEAR(out[0], 5, 1e-15);
    CHECK_NEAR(out[1], atan2(4, 3), 1e-15);
    CHECK(call(&g, rotate, in, 3, out, NULL, NULL) == 2);
    double u = 3 * cos(0.3) - 4 * sin(0.3), w = 3 * sin(0.3) + 4 * cos(0.3);
    CHECK_NEAR(out[0], u, 1e-14);
    CHECK_NEAR(out[1], w, 1e-14);
    /* d(u, w)/dalpha = (-w, u), d/dx = (cos a, sin a) */
    double v, ex, fd;
    partial(&g, rotate, in, 3, 0, 2, &v, &ex, &fd);
    CHECK_NEAR(ex, -w, 1e-14);
    partial(&g, rotate, in, 3, 1, 2, &v, &ex, &fd);
    CHECK_NEAR(ex, u, 1e-14);
    partial(&g, rotate, in, 3, 1, 0, &v, &ex, &fd);
    CHECK_NEAR(ex, sin(0.3), 1e-14);
    check_fd(&g, rotate, in, 3, 2, 1e-7);

    /* array input x[:] with size and sum: the norm, d/dx_i = x_i/|x| */
    int n3 = variant1(&g, norm, 0, 3);
    double x[3] = {1, -2, 2};
    for (int i = 0; i < 3; i++) {
        partial(&g, n3, x, 3, 0, i, &v, &ex, &fd);
        CHECK_NEAR(v, 3, 1e-15);
        CHECK_NEAR(ex, x[i] / 3, 1e-15);
    }
    /* array output: {x, x^2} and {1, 2x} */
    double px = -1.5, one = 1;
    CHECK(call(&g, powers, &px, 1, out, dout, &one) == 2);
    CHECK(out[0] == -1.5 && out[1] == 2.25 && dout[0] == 1 && dout[1] == -3);
    fl_ufarg a;
    CHECK(fl_ufunc_output(g.r, powers, 0, &a) == 0 && a.ndims == 1 && a.dim[0] == 2);

    /* locals sized by the input, element assignment, vector products */
    int s5 = variant1(&g, stats, 0, 5);
    double data[5] = {1, 2, 3, 4, 10};
    CHECK(call(&g, s5, data, 5, out, NULL, NULL) == 2);
    CHECK_NEAR(out[0], 4, 1e-15);
    CHECK_NEAR(out[1], (9 + 4 + 1 + 0 + 36) / 5.0, 1e-14);
    /* d mean/dx_i = 1/n, d var/dx_i = 2(x_i - m)/n */
    for (int i = 0; i < 5; i++) {
        partial(&g, s5, data, 5, 1, i, &v, &ex, &fd);
        CHECK_NEAR(ex, 2 * (data[i] - 4) / 5, 1e-14);
    }
    check_fd(&g, s5, data, 5, 2, 1e-7);

    /* matrix-vector products: w = (M + M' - I) v */
    double mv[6] = {1, 2, 3, 4, 5, -1};
    CHECK(call(&g, matvec, mv, 6, out, NULL, NULL) == 2);
    CHECK_NEAR(out[0], (1 + 1 - 1) * 5 + (2 + 3) * -1, 1e-14);
    CHECK_NEAR(out[1], (3 + 2) * 5 + (4 + 4 - 1) * -1, 1e-14);
    check_fd(&g, matvec, mv, 6, 2, 1e-7);

    /* piecewise code: branches, return, break, for over a vector */
    double xs[] = {-7, -0.5, 0.7, 1.5, 3.3, 6};
    for (int i = 0; i < 6; i++) check_fd(&g, pw, &xs[i], 1, 1, 1e-6);
    double x6 = 6;
    CHECK(call(&g, pw, &x6, 1, out, NULL, NULL) == 1);
    CHECK_NEAR(out[0], 36 + 1 - 3 * 4 + 3.14159265358979323846 * 6, 1e-12);
    double x07 = 0.7; /* only t = 0.5 runs before the break */
    CHECK(call(&g, pw, &x07, 1, out, NULL, NULL) == 1);
    CHECK_NEAR(out[0], 0.49 + 0.7 - 3 * 1.3 + exp(-0.35) * 0.7 + sinh(0.07) * tanh(0.5), 1e-14);
    reg_close(&g);
}

/* Run-time errors: where and what, exactly. */
static void expect_error(reg *g, int id, double *in, int nin, int line, int col, const char *msg)
{
    double out[16];
    fl_ufunc_err err;
    int n = fl_ufunc_call(g->r, id, in, nin, out, 8, NULL, NULL, &err);
    CHECK(n == -1);
    CHECK(err.loc.file && strcmp(err.loc.file, "f.mo") == 0);
    CHECK(err.loc.line == line);
    CHECK(err.loc.col == col);
    if (strcmp(err.msg, msg) != 0 || err.loc.line != line || err.loc.col != col)
        fprintf(stderr, "  got %d:%d: %s\n  want %d:%d: %s\n", err.loc.line, err.loc.col, err.msg, line, col, msg);
    CHECK(strcmp(err.msg, msg) == 0);
}

static void test_runtime_errors(void)
{
    reg g;
    reg_open(&g, lib);
    int fib = add(&g, "P.fib"), depth = add(&g, "P.depth"), forever = add(&g, "P.forever");
    int pick = add(&g, "P.pick"), nsqrt = add(&g, "P.newtonSqrt");
    CHECK(fib >= 0 && depth >= 0 && forever >= 0 && pick >= 0 && nsqrt >= 0);
    double out[16];
    /* recursion: Fibonacci */
    double n = 20;
    CHECK(call(&g, fib, &n, 1, out, NULL, NULL) == 1 && out[0] == 6765);
    n = 99; /* within the limit: 99 nested calls and the first */
    CHECK(call(&g, depth, &n, 1, out, NULL, NULL) == 1 && out[0] == 99);
    n = 100;
    expect_error(&g, depth, &n, 1, 89, 32, "calls nested more than 100 deep (endless recursion in 'P.depth'?)");
    n = 2.5;
    expect_error(&g, depth, &n, 1, 86, 19, "input 'n' of 'P.depth' must be an Integer (got 2.5)");
    /* the while cap */
    double x = 1;
    expect_error(&g, forever, &x, 1, 95, 5,
                 "while loop: more than 10000000 loop iterations in one function evaluation (endless loop?)");
    /* index out of range, also through 'end' */
    int p3 = variant1(&g, pick, 0, 3);
    double args[4] = {1, 2, 3, 2};
    CHECK(call(&g, p3, args, 4, out, NULL, NULL) == 1 && out[0] == 5);
    args[3] = 4;
    expect_error(&g, p3, args, 4, 104, 12, "index 4 out of range 1..3 for 'v'");
    args[3] = 0;
    expect_error(&g, p3, args, 4, 104, 12, "index 0 out of range 1..3 for 'v'");
    /* a failed assert with its message */
    double a2[2] = {-4, 1e-12};
    expect_error(&g, nsqrt, a2, 2, 28, 5, "assertion failed in function 'P.newtonSqrt': newtonSqrt: a = -4 is negative");
    /* a flat call needs fixed sizes */
    fl_ufunc_err err;
    CHECK(fl_ufunc_call(g.r, pick, args, 4, out, 8, NULL, NULL, &err) == -1);
    CHECK(strcmp(err.msg, "input 'v' of 'P.pick' has no fixed size (make a variant)") == 0);
    CHECK(fl_ufunc_call(g.r, p3, args, 3, out, 8, NULL, NULL, &err) == -1);
    CHECK(strcmp(err.msg, "too few input values for 'P.pick' (3)") == 0);
    reg_close(&g);
}

static const char *arith =
    "package Q\n"
    "  function f\n"
    "    input Real x;\n"
    "    input Real d;\n"
    "    output Real y;\n"
    "  protected\n"
    "    Real v[3] = {1, 2, 3};\n"
    "    Real t;\n"
    "  algorithm\n"
    "    y := x/d;\n"                                       /* 10 */
    "    if x > 100 then\n"
    "      y := y + t;\n"                                   /* 12 */
    "    elseif x > 50 then\n"
    "      v := {1, 2};\n"                                  /* 14 */
    "    elseif x > 10 then\n"
    "      y := log(x - 20);\n"                             /* 16 */
    "    end if;\n"
    "  end f;\n"
    "  function g\n"
    "    input Real x;\n"                                   /* 20 */
    "    output Real y;\n"
    "  algorithm\n"
    "    if x > 0 then\n"
    "      y := x;\n"
    "    end if;\n"                                         /* 25 */
    "  end g;\n"
    "  function h\n"
    "    input Real v[:];\n"
    "    input Real x;\n"                                   /* 29 */
    "    output Real y;\n"
    "  algorithm\n"
    "    y := v[integer(x)];\n"                             /* 32 */
    "  end h;\n"
    "end Q;\n";

static void test_more_runtime_errors(void)
{
    reg g;
    reg_open(&g, arith);
    int f = add(&g, "Q.f"), gg = add(&g, "Q.g");
    CHECK(f >= 0 && gg >= 0);
    print_diag(g.d);
    double a[2] = {1, 0};
    expect_error(&g, f, a, 2, 10, 11, "division by zero");
    a[0] = 200, a[1] = 1;
    expect_error(&g, f, a, 2, 12, 16, "'t' is used before it is assigned");
    a[0] = 60;
    expect_error(&g, f, a, 2, 14, 7, "cannot assign an array of size 2 to 'v' of size 3");
    a[0] = 15;
    expect_error(&g, f, a, 2, 16, 12, "log(-5): argument outside the domain of the function");
    double x = -1;
    expect_error(&g, gg, &x, 1, 21, 17, "function 'Q.g' returned without assigning its output 'y'");
    /* not a number where an Integer is needed */
    int h2 = variant1(&g, add(&g, "Q.h"), 0, 2);
    double vx[3] = {5, 6, 2};
    double out[16];
    CHECK(call(&g, h2, vx, 3, out, NULL, NULL) == 1 && out[0] == 6);
    vx[2] = NAN;
    expect_error(&g, h2, vx, 3, 32, 12, "integer(nan) is outside the Integer range");
    vx[2] = 1e10;
    expect_error(&g, h2, vx, 3, 32, 12, "integer(1e+10) is outside the Integer range");
    reg_close(&g);
}

/* Compile errors: located, exact. */
static void expect_compile_error(const char *text, const char *path, const char *msg)
{
    reg g;
    reg_open(&g, text);
    CHECK(g.file != NULL);
    int id = add(&g, path);
    CHECK(id == -1);
    int found = 0;
    for (int i = 0; i < fl_diag_count(g.d); i++)
        if (strcmp(fl_diag_text(g.d, i), msg) == 0) found = 1;
    if (!found) {
        fprintf(stderr, "  expected: %s\n  got:\n", msg);
        print_diag(g.d);
    }
    CHECK(found);
    reg_close(&g);
}

static void test_compile_errors(void)
{
    expect_compile_error("function f\n  input Real x;\n  output Real y;\nalgorithm\n  y := x + speed;\nend f;\n", "f",
                         "f.mo:5:12: error: unknown name 'speed' in function 'f'");
    expect_compile_error("function f\n  input Real x;\n  output Real y;\nalgorithm\n  y := xx;\nend f;\n", "f",
                         "f.mo:5:8: error: unknown name 'xx' in function 'f'; did you mean 'x'?");
    expect_compile_error("function f\n  input Real x;\n  output Real y;\nalgorithm\n  x := 2;\n  y := x;\nend f;\n", "f",
                         "f.mo:5:3: error: cannot assign to input 'x' of function 'f'");
    expect_compile_error("function f\n  input Real x;\n  output Real y;\nalgorithm\n  when x > 1 then\n    y := 1;\n"
                         "  end when;\nend f;\n",
                         "f", "f.mo:5:3: error: when statements are not allowed in functions");
    expect_compile_error("package P\n  function e\n    input Real x;\n    output Real y;\n  external \"C\" y = sin(x);\n"
                         "  end e;\nend P;\n",
                         "P.e", "f.mo:5:3: error: external functions are not supported (function 'P.e')");
    /* a call of an external function from another */
    expect_compile_error("package P\n  function e\n    input Real x;\n    output Real y;\n  external \"C\";\n  end e;\n"
                         "  function g\n    input Real x;\n    output Real y;\n  algorithm\n    y := e(x);\n  end g;\nend P;\n",
                         "P.g", "f.mo:5:3: error: external functions are not supported (function 'P.e')");
    expect_compile_error("function f\n  input Real x;\n  output Integer n;\nalgorithm\n  n := x;\nend f;\n", "f",
                         "f.mo:5:8: error: cannot assign a Real value to 'n' (Integer)");
    expect_compile_error("function f\n  input String s;\n  output Real y;\nalgorithm\n  y := 1;\nend f;\n", "f",
                         "f.mo:2:9: error: type 'String' of 's' is not supported in functions (Real, Integer, "
                         "Boolean and types derived from them)");
    expect_compile_error("function f\n  input Real x;\n  output Real y;\nalgorithm\n  y := der(x);\nend f;\n", "f",
                         "f.mo:5:8: error: 'der' is not allowed in functions");
    expect_compile_error("function f\n  input Real x;\n  output Real y;\nalgorithm\n  y := g(x);\nend f;\n", "f",
                         "f.mo:5:8: error: unknown function 'g' in function 'f'");
    expect_compile_error("function f\n  input Real x[3];\n  output Real y;\nalgorithm\n  y := x;\nend f;\n", "f",
                         "f.mo:5:8: error: cannot assign a vector to 'y', which is a scalar");
    expect_compile_error("function f\n  input Real x;\n  output Real y;\nalgorithm\n  break;\n  y := x;\nend f;\n", "f",
                         "f.mo:5:3: error: 'break' outside a loop");
    expect_compile_error("function f\n  input Real x;\n  output Real y;\nalgorithm\n  y := h(x, z = 1);\nend f;\n"
                         "function h\n  input Real a;\n  output Real b;\nalgorithm\n  b := a;\nend h;\n",
                         "f", "f.mo:5:17: error: 'h' has no input named 'z'");
    expect_compile_error("function f\n  input Real x;\n  output Real y;\nalgorithm\n  y := h();\nend f;\n"
                         "function h\n  input Real a;\n  output Real b;\nalgorithm\n  b := a;\nend h;\n",
                         "f", "f.mo:5:8: error: missing input 'a' in the call of 'h'");
    expect_compile_error("function f\n  extends g;\nalgorithm\n  y := 1;\nend f;\nmodel g\nend g;\n", "f",
                         "f.mo:2:3: error: function 'f' extends 'g', which is not a function of the model");
    expect_compile_error("function f\n  input Real x;\n  output Real y;\nalgorithm\n  if x then\n    y := 1;\n  end if;\n"
                         "end f;\n",
                         "f", "f.mo:5:6: error: the condition of 'if' must be a Boolean scalar (found Real value)");
}

static const char *builtins =
    "package R\n"
    "  function arrays\n"
    "    input Real x;\n"
    "    output Real y[14];\n"
    "  protected\n"
    "    Real v[:] = linspace(0, x, 5);\n"
    "    Real M[2, 3] = [1, 2, 3; 4, 5, 6]*x;\n"
    "    Real I[2, 2] = identity(2);\n"
    "    Real D[3, 3] = diagonal({1, x, x^2});\n"
    "    Real c[:];\n"
    "    Integer s[2];\n"
    "    Real t = 0;\n"
    "  algorithm\n"
    "    y := zeros(14);\n"
    "    y[1] := sum(v);\n"
    "    y[2] := product({x, 2, x});\n"
    "    y[3] := max(M);\n"
    "    y[4] := min({x, -x, 3});\n"
    "    y[5] := sum(transpose(M)*{1, 1});\n"
    "    c := cat(1, v[2:3], {x^3});\n"
    "    y[6] := c*c;\n"
    "    y[7] := sum(D*c);\n"
    "    s := size(M);\n"
    "    y[8] := s[1]*10 + s[2] + ndims(M);\n"
    "    y[9] := sum(I) + sum(ones(2, 2)) + sum(fill(x, 2, 3));\n"
    "    for i in 1:2, j in 1:3 loop\n"
    "      t := t + M[i, j]*i;\n"
    "    end for;\n"
    "    y[10] := t;\n"
    "    y[11] := sum({i*j for i in 1:2, j in 1:3});\n"
    "    y[12] := sum(cross({1, 0, 0}, {x, x^2, 1})) + scalar({x}) + sum(vector([x; 2]));\n"
    "    y[13] := sum(0:0.5:2) + div(7, 2) + rem(-7, 2) + mod(-7, 2) + integer(2.7) + sign(-x) + ceil(0.2);\n"
    "    y[14] := sum(x:x:3*x) + atan2(x, 1) + sqrt(x)*log10(x) + floor(x);\n"
    "  end arrays;\n"
    "  function grow\n"
    "    input Integer n;\n"
    "    input Real x;\n"
    "    output Real y[:];\n"
    "  algorithm\n"
    "    y := fill(0, 0);\n"
    "    for i in 1:n loop\n"
    "      y := cat(1, y, {x^i});\n"
    "    end for;\n"
    "  end grow;\n"
    "  function scaled\n"
    "    input Real x;\n"
    "    input Real s = 2*x;\n"
    "    output Real y = x*s;\n"
    "  end scaled;\n"
    "  function sgn\n"
    "    input Real x;\n"
    "    input Boolean flip = false;\n"
    "    output Integer s;\n"
    "    output Boolean neg;\n"
    "  algorithm\n"
    "    neg := x < 0 or (flip and x == 0);\n"
    "    s := if neg then -1 else 1;\n"
    "    if flip then\n"
    "      s := -s;\n"
    "    end if;\n"
    "  end sgn;\n"
    "  function firstSquareAbove\n"
    "    input Integer n;\n"
    "    output Integer k = 0;\n"
    "  algorithm\n"
    "    while true loop\n"
    "      k := k + 1;\n"
    "      if k*k > n then\n"
    "        break;\n"
    "      end if;\n"
    "    end while;\n"
    "  end firstSquareAbove;\n"
    "  function isEven\n"
    "    input Integer n;\n"
    "    output Boolean b;\n"
    "  algorithm\n"
    "    b := if n == 0 then true else isOdd(n - 1);\n"
    "  end isEven;\n"
    "  function isOdd\n"
    "    input Integer n;\n"
    "    output Boolean b;\n"
    "  algorithm\n"
    "    b := if n == 0 then false else isEven(n - 1);\n"
    "  end isOdd;\n"
    "  partial function scalarFn\n"
    "    input Real u;\n"
    "    output Real y;\n"
    "  end scalarFn;\n"
    "  function cube\n"
    "    extends scalarFn;\n"
    "    extends Modelica.Icons.Function;\n"
    "    input Real s = 1;\n"
    "  algorithm\n"
    "    y := s*u^3;\n"
    "  end cube;\n"
    "end R;\n";

static void test_builtins(void)
{
    reg g;
    reg_open(&g, builtins);
    int arrays = add(&g, "R.arrays"), grow = add(&g, "R.grow"), scaled = add(&g, "R.scaled");
    int sgn = add(&g, "R.sgn"), fsa = add(&g, "R.firstSquareAbove"), even = add(&g, "R.isEven");
    CHECK(arrays >= 0 && grow >= 0 && scaled >= 0 && sgn >= 0 && fsa >= 0 && even >= 0);
    print_diag(g.d);
    double x = 1.3, one = 1, y[14], dy[14];
    fl_ufunc_err err;
    CHECK(fl_ufunc_call(g.r, arrays, &x, 1, y, 14, &one, dy, &err) == 14);
    double want[14] = {2.5 * x,
                       2 * x * x,
                       6 * x,
                       -x,
                       21 * x,
                       x * x / 16 + x * x / 4 + pow(x, 6),
                       x / 4 + x * x / 2 + pow(x, 5),
                       25,
                       6 + 6 * x,
                       36 * x,
                       18,
                       x * x + 2 * x + 1,
                       5 + 3 - 1 + 1 + 2 - 1 + 1,
                       6 * x + atan2(x, 1) + sqrt(x) * log10(x) + 1};
    double dwant[14] = {2.5, 4 * x, 6, -1, 21, x / 8 + x / 2 + 6 * pow(x, 5), 0.25 + x + 5 * pow(x, 4), 0, 6, 36, 0,
                        2 * x + 2, 0, 6 + 1 / (1 + x * x) + log10(x) / (2 * sqrt(x)) + 1 / (sqrt(x) * log(10))};
    for (int i = 0; i < 14; i++) {
        CHECK_NEAR(y[i], want[i], 1e-13);
        CHECK_NEAR(dy[i], dwant[i], 1e-13);
    }
    check_fd(&g, arrays, &x, 1, 14, 1e-7);

    /* an output whose size the algorithm decides */
    double in[2] = {4, 2}, out[16], dout[16], seed[2] = {0, 1};
    CHECK(call(&g, grow, in, 2, out, dout, seed) == 4);
    CHECK(out[0] == 2 && out[1] == 4 && out[2] == 8 && out[3] == 16);
    CHECK(dout[0] == 1 && dout[1] == 4 && dout[2] == 12 && dout[3] == 32);
    fl_ufarg a;
    CHECK(fl_ufunc_output(g.r, grow, 0, &a) == 0 && a.ndims == 1 && a.dim[0] == -1);
    CHECK(fl_ufunc_call(g.r, grow, in, 2, out, 3, NULL, NULL, &err) == -1);
    CHECK(strcmp(err.msg, "the outputs of 'R.grow' are 4 values, room for 3") == 0);

    /* a default that depends on another input, an output given by its binding */
    int s1 = fl_ufunc_variant(g.r, scaled, (const unsigned char[]){1, 0}, NULL, fl_noloc, g.d);
    double v, ex, fd, x3 = 3;
    partial(&g, s1, &x3, 1, 0, 0, &v, &ex, &fd);
    CHECK(v == 18 && ex == 12);

    /* Booleans: outputs 0/1 */
    double b[2] = {-2, 0};
    CHECK(call(&g, sgn, b, 2, out, NULL, NULL) == 2 && out[0] == -1 && out[1] == 1);
    b[0] = 0, b[1] = 1;
    CHECK(call(&g, sgn, b, 2, out, NULL, NULL) == 2 && out[0] == 1 && out[1] == 1);
    b[1] = 0.5;
    CHECK(fl_ufunc_call(g.r, sgn, b, 2, out, 8, NULL, NULL, &err) == -1);
    CHECK(strcmp(err.msg, "input 'flip' of 'R.sgn' must be a Boolean (got 0.5)") == 0);

    /* while with break; mutual recursion */
    double n = 50;
    CHECK(call(&g, fsa, &n, 1, out, NULL, NULL) == 1 && out[0] == 8);
    n = 7;
    CHECK(call(&g, even, &n, 1, out, NULL, NULL) == 1 && out[0] == 0);
    n = 8;
    CHECK(call(&g, even, &n, 1, out, NULL, NULL) == 1 && out[0] == 1);

    /* extends of a partial function: its inputs and outputs come first */
    int cube = add(&g, "R.cube");
    CHECK(cube >= 0 && fl_ufunc_ninputs(g.r, cube) == 2);
    CHECK(fl_ufunc_input(g.r, cube, 0, &a) == 0 && strcmp(a.name, "u") == 0);
    CHECK(fl_ufunc_input(g.r, cube, 1, &a) == 0 && strcmp(a.name, "s") == 0);
    double us[2] = {2, 0.5};
    partial(&g, cube, us, 2, 0, 0, &v, &ex, &fd);
    CHECK(v == 4 && ex == 6);
    CHECK(add(&g, "R.scalarFn") == -1);
    CHECK(strcmp(fl_diag_text(g.d, fl_diag_count(g.d) - 1),
                 "f.mo:85:20: error: function 'R.scalarFn' is partial and cannot be called") == 0);
    reg_close(&g);

    /* Integer arithmetic is 32-bit */
    reg_open(&g, lib);
    int fact = add(&g, "P.factorial");
    n = 12;
    CHECK(call(&g, fact, &n, 1, out, NULL, NULL) == 1 && out[0] == 479001600);
    n = 13;
    expect_error(&g, fact, &n, 1, 18, 13, "Integer overflow (6227020800)");
    reg_close(&g);
}

/* Expressions nested deeply inside deep recursion: the interpreter's
 * stack is bounded by its nesting limit, with a message. */
static void test_nesting_limit(void)
{
    fl_buf b = {0};
    fl_buf_add(&b, "function deep\n  input Integer n;\n  input Real x;\n  output Real y;\nalgorithm\n  y := if n <= 0 then x else ");
    for (int i = 0; i < 60; i++) fl_buf_add(&b, "1 + (");
    fl_buf_add(&b, "deep(n - 1, x)");
    for (int i = 0; i < 60; i++) fl_buf_addc(&b, ')');
    fl_buf_add(&b, ";\nend deep;\n");
    reg g;
    reg_open(&g, b.s);
    fl_buf_free(&b);
    int deep = add(&g, "deep");
    CHECK(deep >= 0);
    double in[2] = {30, 0.5}, out[16];
    CHECK(call(&g, deep, in, 2, out, NULL, NULL) == 1 && out[0] == 60 * 30 + 0.5);
    in[0] = 90;
    fl_ufunc_err err;
    CHECK(fl_ufunc_call(g.r, deep, in, 2, out, 16, NULL, NULL, &err) == -1);
    CHECK(err.loc.line == 6);
    CHECK(strcmp(err.msg, "expressions and calls nested more than 4000 deep in one function evaluation") == 0);
    reg_close(&g);
}

/* Two threads call the same functions with different arguments. */
typedef struct job {
    const fl_ufuncs *r;
    int nsqrt, fib;
    double base;
    int bad;
} job;

static void *worker(void *arg)
{
    job *j = arg;
    for (int i = 0; i < 2000; i++) {
        double a = j->base + i, one = 1, out[2], dout[2];
        fl_ufunc_err err;
        if (fl_ufunc_call(j->r, j->nsqrt, &a, 1, out, 2, &one, dout, &err) != 1 || fabs(out[0] - sqrt(a)) > 1e-14 * sqrt(a) ||
            fabs(dout[0] - 0.5 / sqrt(a)) > 1e-13 / sqrt(a))
            j->bad++;
        double n = (double)(i % 15);
        double expect[15] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377};
        if (fl_ufunc_call(j->r, j->fib, &n, 1, out, 2, NULL, NULL, &err) != 1 || out[0] != expect[i % 15]) j->bad++;
    }
    return NULL;
}

static void test_threads(void)
{
    reg g;
    reg_open(&g, lib);
    int ns = add(&g, "P.newtonSqrt"), fib = add(&g, "P.fib");
    int s1 = fl_ufunc_variant(g.r, ns, (const unsigned char[]){1, 0}, NULL, fl_noloc, g.d);
    job a = {g.r, s1, fib, 0.5, 0}, b = {g.r, s1, fib, 1e5, 0};
    pthread_t ta, tb;
    CHECK(pthread_create(&ta, NULL, worker, &a) == 0);
    CHECK(pthread_create(&tb, NULL, worker, &b) == 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    CHECK(a.bad == 0);
    CHECK(b.bad == 0);
    reg_close(&g);
}

/* The programs' callback: a graph with a call and its derivative, lowered
 * and run as the equation layer does. */
static int leaf(void *ctx, const fl_snode *n, fl_sx x, int *src, int *idx)
{
    (void)ctx;
    (void)x;
    if (n->op != SX_VAR) return 0;
    *src = 0;
    *idx = (int)n->u.k;
    return 1;
}

static void test_program_callback(void)
{
    reg g;
    reg_open(&g, lib);
    int rotate = add(&g, "P.rotate"), drag = add(&g, "P.drag");
    CHECK(rotate >= 0 && drag >= 0);
    fl_sgraph sg;
    fl_sg_init(&sg);
    fl_sx a[3] = {fl_sx_var(&sg, 0), fl_sx_var(&sg, 1), fl_sx_var(&sg, 2)};
    fl_sx u = fl_sx_call(&sg, rotate, 0, a, 3, 0), w = fl_sx_call(&sg, rotate, 1, a, 3, 0);
    fl_sx e = fl_sx_add(&sg, fl_sx_mul(&sg, u, u), fl_sx_mul(&sg, w, w)); /* the radius squared */
    fl_sx dx = fl_sx_partial(&sg, e, a[0]), dal = fl_sx_partial(&sg, e, a[2]);
    fl_sx dw = fl_sx_partial(&sg, w, a[2]);
    fl_sx roots[4] = {e, dx, dal, dw};
    fl_sprog p;
    CHECK(fl_sprog_lower(&p, &sg, roots, 4, leaf, NULL) == 0);
    double *regs = fl_sprog_scratch(&p, 1);
    double in[3] = {3, 4, 0.3};
    for (int i = 0; i < p.nld; i++) regs[p.ld[i].reg] = in[p.ld[i].idx];
    fl_ufunc_rt rt;
    fl_ufunc_rt_init(&rt, g.r);
    fl_sexec x;
    memset(&x, 0, sizeof x);
    x.call = fl_ufunc_scall;
    x.call_ctx = &rt;
    fl_sprog_run(&p, regs, 1, 1, &x);
    CHECK_NEAR(regs[p.out[0]], 25, 1e-13);
    CHECK_NEAR(regs[p.out[1]], 6, 1e-13);  /* d(x^2 + y^2)/dx */
    CHECK_NEAR(regs[p.out[2]], 0, 1e-13);  /* a rotation keeps the radius */
    CHECK_NEAR(regs[p.out[3]], 3 * cos(0.3) - 4 * sin(0.3), 1e-13);
    CHECK(rt.failed == 0);
    /* a run-time error: NAN and the message */
    double v2[2] = {1, 2};
    CHECK(fl_ufunc_scall(&rt, drag, 0, 0, v2, 2) == 2);
    CHECK(fl_ufunc_scall(&rt, drag, 0, 1, v2, 2) == 4);
    CHECK(fl_ufunc_scall(&rt, drag, 0, 2, v2, 2) == 1);
    CHECK(isnan(fl_ufunc_scall(&rt, drag, 1, 0, v2, 2)));
    CHECK(rt.failed == 1 && strcmp(rt.err.msg, "output 1 of 'P.drag' does not exist") == 0);
    fl_ufunc_rt_free(&rt);
    free(regs);
    fl_sprog_free(&p);
    fl_sg_free(&sg);
    reg_close(&g);
}

/* Parameter expressions calling user functions (fl_eval_calls + the hook). */
static double eval_text(reg *g, const fl_class_ast *from, const char *text, fl_value *v)
{
    fl_expr *e = fl_parse_expr(text, "p.mo", g->d);
    if (!e) return NAN;
    fl_ufunc_hook h = {g->r, &g->scope, from};
    fl_eval_env env = {NULL, NULL, NULL};
    memset(v, 0, sizeof *v);
    int rc = fl_eval_calls(e, &env, fl_ufunc_eval_hook, &h, v, g->d);
    fl_expr_free(e);
    return rc ? NAN : v->num;
}

static void test_parameters(void)
{
    reg g;
    reg_open(&g, lib);
    const char *path;
    const fl_class_ast *pkg = fl_ufunc_lex_find_class(&g.lex, NULL, "P", &path);
    fl_value v;
    CHECK(eval_text(&g, pkg, "drag(2) + 1", &v) == 2.5 * 4 + 1);
    CHECK(v.kind == V_REAL);
    CHECK(eval_text(&g, pkg, "P.drag(c = 3, v = -2)", &v) == -12);
    CHECK(eval_text(&g, pkg, "factorial(5)", &v) == 120 && v.kind == V_INT);
    CHECK(eval_text(&g, pkg, "sum({fib(i) for i in 1:10})", &v) == 143);
    CHECK_NEAR(eval_text(&g, pkg, "norm2({3, 4, 12})", &v), 13, 1e-14);
    eval_text(&g, pkg, "powers(3)", &v);
    CHECK(v.kind == V_ARRAY && v.ndims == 1 && v.dim[0] == 2 && v.data[0] == 3 && v.data[1] == 9);
    fl_value_free(&v);
    CHECK(fl_diag_count(g.d) == 0);
    print_diag(g.d);
    /* errors: a failed assert inside, located, with the call site; bad arguments */
    CHECK(isnan(eval_text(&g, pkg, "newtonSqrt(-1)", &v)));
    CHECK(fl_diag_count(g.d) == 2);
    CHECK(strcmp(fl_diag_text(g.d, 0),
                 "f.mo:28:5: error: assertion failed in function 'P.newtonSqrt': newtonSqrt: a = -1 is negative") == 0);
    CHECK(strcmp(fl_diag_text(g.d, 1), "p.mo:1:1: note: in the call of 'P.newtonSqrt' here") == 0);
    CHECK(isnan(eval_text(&g, pkg, "factorial(2.5)", &v)));
    CHECK(strcmp(fl_diag_text(g.d, 2), "p.mo:1:11: error: input 'n' of 'P.factorial' is an Integer, the argument Real") == 0);
    CHECK(isnan(eval_text(&g, pkg, "drag(1, 2, 3)", &v)));
    CHECK(strcmp(fl_diag_text(g.d, 3), "p.mo:1:12: error: too many arguments in the call of 'P.drag' (it has 2 inputs)") ==
          0);
    CHECK(isnan(eval_text(&g, pkg, "nothing(1)", &v)));
    CHECK(strcmp(fl_diag_text(g.d, 4), "p.mo:1:1: error: unknown function 'nothing'") == 0);
    reg_close(&g);
}

int main(void)
{
    test_closed_forms();
    test_outputs_and_arrays();
    test_runtime_errors();
    test_more_runtime_errors();
    test_compile_errors();
    test_builtins();
    test_nesting_limit();
    test_threads();
    test_program_callback();
    test_parameters();
    return check_done();
}
