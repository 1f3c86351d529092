/* laws.h - element and driver operations shared between the translational
 * classes and their rotational twins (a rotational spring is the
 * translational spring's law with angle and torque for position and force):
 * each law is defined once, in the file of its translational class. The
 * ops read parameters by index: a twin lists its parameters in the order
 * given here. */
#ifndef FL_COMPONENTS_LAWS_H
#define FL_COMPONENTS_LAWS_H

#include "component.h"

extern const fl_elem_ops fl_spring_ops;       /* f = c (s_rel - s_rel0); params c, s_rel0 */
extern const fl_elem_ops fl_damper_ops;       /* f = d v_rel; params d */
extern const fl_elem_ops fl_springdamper_ops; /* f = c (s_rel - s_rel0) + d v_rel; params c, d, s_rel0 */
extern const fl_elem_ops fl_force_ops;        /* flange.f = -u from input 0, support.f = u */

/* Flange.Components (contacts.c, limiter.c) and their rotational twins
 * (rot_stops.c): the same parameter, port and variable order in both
 * domains, so the outputs are shared too. */
/* SymmetricHardStop: params b, c, d, stateSelect, s_nominal; vars F, s_rel, v_rel, lossPower, contact */
extern const fl_elem_ops fl_symhardstop_ops;
void fl_symhardstop_outputs(const fl_octx *o, double *v);
/* HardStop: ports R, C; params upper_bnd, lower_bnd, stiff_up, stiff_low, D_up, D_low, hs_model,
 * trans_region, cor, v_static, f_release, x_start; vars F, x, v, contact, mode, lossPower,
 * impactEnergy. The select functions pick the RESTITUTION ops (fl_rot_: messages name the torque). */
extern const fl_elem_ops fl_hardstop_ops;
const fl_elem_ops *fl_hardstop_select(const double *par);
const fl_elem_ops *fl_rot_hardstop_select(const double *par);
void fl_hardstop_outputs(const fl_octx *o, double *v);
/* ForceLimiter: ports flange_a, flange_b, inputs fmax, fmin; params useFmaxInput, useFminInput,
 * f_max, f_min, m, d, dfdv, dvdf; vars f, s_rel, v_rel, s, f_lim, limit, lossPower, mode,
 * startForward, startBackward */
extern const fl_elem_ops fl_limiter_ops;
const fl_elem_ops *fl_limiter_select(const double *par);
void fl_limiter_outputs(const fl_octx *o, double *v);

/* Force sources between support (attachment 0) and flange (attachment 1);
 * they compute flange.f (the rotational tau = -flange.tau); v is the
 * velocity of the flange relative to the support. */
extern const fl_elem_ops fl_constantforce_ops; /* -f_constant; params f_constant */
extern const fl_elem_ops fl_forcestep_ops;     /* params stepForce, offsetForce, startTime */
extern const fl_elem_ops fl_signforce_ops;     /* params f_nominal, reg, v0 */
extern const fl_elem_ops fl_linforce_ops;      /* params f_nominal, ForceDirection, v_nominal */
extern const fl_elem_ops fl_quadforce_ops;     /* params f_nominal, ForceDirection, v_nominal */
extern const fl_elem_ops fl_invforce_ops;      /* params f_nominal, ForceDirection, v_nominal, v0 */

/* Prescribed motion of flange relative to support. */
extern const fl_drv_ops fl_position_drv;      /* input s_ref; params exact, f_crit */
extern const fl_drv_ops fl_speed_drv;         /* input v_ref; params exact, f_crit */
extern const fl_drv_ops fl_accelerate_drv;    /* input a_ref */
extern const fl_drv_ops fl_move_drv;          /* inputs u[3] = s, v, a */
extern const fl_drv_ops fl_constantspeed_drv; /* params v_fixed */

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

/* Relative position, velocity, acceleration of flange_b against flange_a
 * (RelativeStates' s_rel, v_rel, a_rel; the rotational phi_rel, w_rel,
 * a_rel and the first three variables of the rotational dampers). */
void fl_relstates_outputs(const fl_octx *o, double *v);
/* Through sensors: a massless rigid link flange_a -> flange_b; the second
 * also needs flange_a's velocity (power). */
int fl_link_build(fl_builder *b);
int fl_link_observe_build(fl_builder *b);

#endif
