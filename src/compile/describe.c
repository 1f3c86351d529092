/* describe.c - the text of `flange check` (flattened structure of a
 * compiled system) and of `flange components` (the class catalogue). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"

static void print_param(FILE *out, const fl_system *s, const fl_inst_rt *ir, int k)
{
    const fl_param_def *pd = &ir->cls->params[k];
    double v = s->par[ir->prow + k];
    char tmp[48];
    switch (pd->type) {
    case FL_P_BOOL: fprintf(out, "%s=%s", pd->name, v != 0 ? "true" : "false"); break;
    case FL_P_ENUM: {
        const fl_enum_type *t = fl_enum_find(pd->enum_type);
        int i = (int)v - 1;
        fprintf(out, "%s=%s", pd->name, t && i >= 0 && i < t->n ? t->lits[i] : "?");
        break;
    }
    case FL_P_STRING: fprintf(out, "%s=\"...\"", pd->name); break;
    case FL_P_VECTOR:
    case FL_P_MATRIX: {
        const fl_value *a = &s->arrays[(int)v];
        if (a->ndims == 1) fprintf(out, "%s=[%d]", pd->name, a->dim[0]);
        else fprintf(out, "%s=[%dx%d]", pd->name, a->dim[0], a->dim[1]);
        break;
    }
    default:
        fl_fmt_double(tmp, sizeof tmp, v);
        fprintf(out, "%s=%s", pd->name, tmp);
    }
}

typedef struct names_job {
    const fl_system *s;
    char **names;
} names_job;

static void names_cleanup(void *arg)
{
    names_job *j = arg;
    fl_node_names_free(j->s, j->names);
}

FL_GUARDED_VOID(fl_system_describe, (const fl_system *s, FILE *out), (s, out), fl_guard_print(&g_, out))
{
    if (!s) return;
    /* the node names are not kept in a compiled system */
    names_job nj = {s, fl_node_names_build(s)};
    char *const *node_names = nj.names;
    fl_cleanup cl;
    fl_cleanup_push(&cl, names_cleanup, &nj);
    char a[48], b[48], c[48], d[48];
    fprintf(out, "model %s\n", s->name);
    fl_fmt_double(a, sizeof a, s->exp.start_time);
    fl_fmt_double(b, sizeof b, s->exp.stop_time);
    fl_fmt_double(c, sizeof c, s->exp.interval);
    fl_fmt_double(d, sizeof d, s->exp.tolerance);
    fprintf(out, "experiment: StartTime=%s StopTime=%s Interval=%s Tolerance=%s\n", a, b, c, d);

    fprintf(out, "\ncomponents (%d):\n", s->ninst);
    for (int i = 0; i < s->ninst; i++) {
        const fl_inst_rt *ir = &s->insts[i];
        fprintf(out, "  %-20s %s", fl_ir_name(s, ir), ir->cls->path);
        for (int k = 0; k < ir->cls->nparams; k++) {
            fputs(k ? ", " : "  (", out);
            print_param(out, s, ir, k);
            if (k == ir->cls->nparams - 1) fputc(')', out);
        }
        fputc('\n', out);
    }

    int nsets = 0;
    for (int n = 0; n < s->nnodes; n++)
        if (strchr(node_names[n], ',')) nsets++;
    fprintf(out, "\nconnection sets (%d):\n", nsets);
    for (int n = 0; n < s->nnodes; n++)
        if (strchr(node_names[n], ',')) fprintf(out, "  %s\n", node_names[n]);

    int nsig = 0;
    for (int k = 0; k < s->nsig; k++) nsig += s->sigs[k].kind != SIG_NONE;
    fprintf(out, "\nsignal connections (%d):\n", nsig);
    for (int i = 0; i < s->ninst; i++) {
        const fl_inst_rt *ir = &s->insts[i];
        for (int p = 0; p < ir->cls->nports; p++) {
            const fl_port_def *pd = &ir->cls->ports[p];
            if (pd->kind != FL_PORT_INPUT) continue;
            int sig = fl_port_sig(ir, p);
            int w = pd->width > 0 ? pd->width : 1;
            for (int q = 0; q < w; q++) {
                const fl_sigref *sr = &s->sigs[sig + q];
                if (sr->kind == SIG_NONE) continue;
                const char *in = fl_ir_name(s, ir), *dot = in[0] ? "." : ""; /* the model's own equations: instance "" */
                if (pd->width > 0) fprintf(out, "  %s%s%s[%d] <- ", in, dot, pd->name, q + 1);
                else fprintf(out, "  %s%s%s <- ", in, dot, pd->name);
                if (sr->kind == SIG_BLOCK) {
                    const fl_inst_rt *src = &s->insts[sr->inst];
                    int sub, port = fl_block_port(src->cls, src->nout, sr->out, &sub);
                    const char *pn = port >= 0 ? src->cls->ports[port].name : "y";
                    if (port >= 0 && src->cls->ports[port].width != 0) fprintf(out, "%s.%s[%d]\n", fl_ir_name(s, src), pn, sub + 1);
                    else fprintf(out, "%s.%s\n", fl_ir_name(s, src), pn);
                } else if (sr->kind == SIG_KIN) {
                    static const char *const lv[] = {"position", "velocity", "acceleration"};
                    fprintf(out, "%s of %s", lv[sr->level], node_names[sr->node[0]]);
                    if (sr->node[1] >= 0) fprintf(out, " relative to %s", node_names[sr->node[1]]);
                    fputc('\n', out);
                } else if (sr->kind == SIG_Y) {
                    fprintf(out, "an unknown of %s\n", fl_inst_name(s, s->elems[sr->inst].inst));
                } else { /* SIG_LATE: a variable of another instance, known at output points */
                    const fl_inst_rt *src = &s->insts[sr->inst];
                    if (sr->out >= 0) fprintf(out, "%s.%s (at output points)\n", fl_ir_name(s, src), src->cls->vars[sr->out].name);
                    else fprintf(out, "%s.%s force (at output points)\n", fl_ir_name(s, src), src->cls->ports[sr->level].name);
                }
            }
        }
    }

    fprintf(out, "\nbodies (%d):\n", s->nbodies);
    /* the nodes of each body, in node order */
    int *next = fl_xmalloc(sizeof(int) * (size_t)(s->nnodes ? s->nnodes : 1));
    int *head = fl_xmalloc(sizeof(int) * (size_t)(s->nbodies ? s->nbodies : 1));
    for (int bi = 0; bi < s->nbodies; bi++) head[bi] = -1;
    for (int n = s->nnodes - 1; n >= 0; n--) {
        next[n] = head[s->nodes[n].body];
        head[s->nodes[n].body] = n;
    }
    for (int bi = 0; bi < s->nbodies; bi++) {
        const fl_body *bd = &s->bodies[bi];
        fprintf(out, "  %d: %s", bi + 1, fl_body_kind_name(bd->kind));
        /* the mass and position in the domain of the body's reference node
         * (a rotational body reflects a rack's mass as an inertia) */
        int rot = bd->ref_node >= 0 && s->nodes[bd->ref_node].dom == FL_DOM_ROT;
        if (bd->mass > 0) {
            fl_fmt_double(a, sizeof a, bd->mass);
            fprintf(out, rot ? ", J = %s kg.m2" : ", m = %s kg", a);
        }
        if (bd->kind == B_GROUND) {
            fl_fmt_double(a, sizeof a, bd->q0);
            fprintf(out, rot ? " at phi = %s" : " at s = %s", a);
        }
        if (bd->root >= 0 && s->roots[bd->root].drv >= 0) fprintf(out, " by %s", fl_inst_name(s, s->roots[bd->root].inst));
        fputs(":", out);
        for (int n = head[bi]; n >= 0; n = next[n]) {
            fprintf(out, " %s", node_names[n]);
            if (s->nodes[n].ratio != 1) { /* joined by a lever: moves ratio times as far */
                fl_fmt_double(a, sizeof a, s->nodes[n].ratio);
                fprintf(out, " (x%s)", a);
            }
        }
        fputc('\n', out);
    }
    free(next);
    free(head);

    if (s->ncons) { /* relations among three or more flanges: rows of their own */
        static const char *const lv[] = {"on positions", "on velocities (differentiated once)",
                                         "on accelerations (differentiated twice)"};
        fprintf(out, "\nconstraints among three or more flanges (%d):\n", s->ncons);
        for (int k = 0; k < s->ncons; k++) {
            const fl_con *ck = &s->cons[k];
            fprintf(out, "  %s, %s:", fl_inst_name(s, s->elems[ck->elem].inst), lv[ck->level]);
            for (int i = 0; i < ck->n; i++) {
                int n = s->con_node[ck->k0 + i];
                double cf = s->con_coef[ck->k0 + i];
                fl_fmt_double(a, sizeof a, fabs(cf));
                fprintf(out, " %s%s %s", cf < 0 ? "- " : i ? "+ " : "", a, n >= 0 ? node_names[n] : "(ground)");
            }
            if (ck->off != 0) {
                fl_fmt_double(a, sizeof a, fabs(ck->off));
                fprintf(out, " %s %s", ck->off < 0 ? "-" : "+", a);
            }
            fputs(" = 0\n", out);
        }
    }

    fprintf(out, "\nunknowns (%d; %d differential):\n", s->n, s->nd);
    for (int i = 0; i < s->n; i++)
        fprintf(out, "  %-28s %s\n", fl_unk_name(s, i), fl_unk_diff(s, i) ? "state" : "algebraic");
    if (s->n == 0)
        fprintf(out, "  none: %s\n",
                s->ninst ? "the outputs are functions of time, computed at the output points without an integrator"
                         : "the model is empty; a simulation writes only the time column at the output points");

    fprintf(out, "\ninitial conditions (%d):\n", s->ncond_used);
    for (int k = 0; k < s->ncond_used; k++) {
        const fl_rcond *cd = &s->rconds[fl_cond_used(s, k)];
        if (cd->source == CV_INPUT || cd->source == CV_ELEM) { /* (an element's row: its label says it all) */
            fprintf(out, "  %s\n", fl_rcond_label(s, cd));
        } else {
            fl_fmt_double(a, sizeof a, cd->value);
            fprintf(out, "  %s = %s%s\n", fl_rcond_label(s, cd), a,
                    cd->filled ? "  (start value: the conditions were under-determined)"
                    : cd->weak ? "  (default start value)" : "");
        }
    }

    fprintf(out, "\nevents:\n");
    int ntime = 0;
    for (int k = 0; k < s->nblocks; k++) ntime += s->insts[s->blocks[k]].cls->block->next_event != NULL;
    for (int e = 0; e < s->nelem; e++) ntime += fl_inst_ops(s, s->elems[e].inst)->next_time_event != NULL;
    fprintf(out, "  time events from %d component%s\n", ntime, ntime == 1 ? "" : "s");
    fprintf(out, "  state events: %d root function%s", s->nroot_fns, s->nroot_fns == 1 ? "" : "s");
    int first = 1;
    for (int e = 0; e < s->nelem; e++) {
        if (!fl_inst_ops(s, s->elems[e].inst)->nroots) continue;
        fprintf(out, "%s%s", first ? " (" : ", ", fl_inst_name(s, s->elems[e].inst));
        first = 0;
    }
    fputs(first ? "\n" : ")\n", out);
    fprintf(out, "\nlinear solver: %s (%d unknowns, %d nonzeros in the Jacobian)\n",
            s->linsolver == FL_SOLVER_KLU ? "klu" : "dense", s->n, s->jpat.nnz);
    if (s->ngroups > 1) {
        int big = 0;
        for (int g = 0; g < s->ngroups; g++) big = s->groups[g].nu > big ? s->groups[g].nu : big;
        fprintf(out, "integration: %d independent groups (the largest has %d unknowns)\n", s->ngroups, big);
    }
    fprintf(out, "output variables: %d\n", s->nvars);
    fl_cleanup_pop(&cl);
    fl_node_names_free(s, nj.names);
}

