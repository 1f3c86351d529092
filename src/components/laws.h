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

#endif
