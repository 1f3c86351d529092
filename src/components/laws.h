/* laws.h - element operations shared between the translational classes
 * and their rotational twins (a rotational spring is the translational
 * spring's law with angle and torque for position and force): each law is
 * defined once, in the file of its translational class. */
#ifndef FL_COMPONENTS_LAWS_H
#define FL_COMPONENTS_LAWS_H

#include "component.h"

extern const fl_elem_ops fl_spring_ops;       /* f = c (s_rel - s_rel0); params c, s_rel0 */
extern const fl_elem_ops fl_damper_ops;       /* f = d v_rel; params d */
extern const fl_elem_ops fl_springdamper_ops; /* f = c (s_rel - s_rel0) + d v_rel; params c, d, s_rel0 */
extern const fl_elem_ops fl_force_ops;        /* flange.f = -u from input 0, support.f = u */

/* Stick-slip friction (friction.c, on friction_core.c) between attachment 0
 * and 1, sliding velocity v1 - v0, force f on attachment 1 and -f on 0. */
/* a table f(v): params f_pos, smoothness, peak, v_small (SupportFriction) */
extern const fl_elem_ops fl_supportfriction_ops;
/* a coefficient table times a normal force fn_max*u (input 0), free while
 * fn <= 0: params mu_pos, smoothness, peak, cgeo, fn_max, v_small (Brake) */
extern const fl_elem_ops fl_brake_ops;
int fl_brake_check(const fl_pctx *p, fl_diag *d); /* the table mu_pos */
/* Output values from the relative motion of the sliding surfaces (sr, vr,
 * ar): SupportFriction's s, v, a, f, lossPower, then sa, mode,
 * startForward, startBackward, locked, free, f0, f0_max, v_relfric,
 * a_relfric; Brake's the same with mu, fn after lossPower. */
void fl_supportfriction_values(const fl_octx *o, double sr, double vr, double ar, double *v);
void fl_brake_values(const fl_octx *o, double sr, double vr, double ar, double *v);
/* the motion of flange_a (port 0) relative to the support (port 2, absent: ground) */
void fl_support_rel(const fl_octx *o, double *sr, double *vr, double *ar);

#endif
