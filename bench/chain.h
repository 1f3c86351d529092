/* chain.h - the benchmark chain, shared by the text generator, the C API
 * builder and the hand-written IDA reference: N wagons (masses) joined by a
 * coupler (SpringDamper) and buffers (HardStop, full stiffness and damping)
 * in parallel between each neighbour pair; the first is pushed by a force
 * step. */
#ifndef BENCH_CHAIN_H
#define BENCH_CHAIN_H

#define CHAIN_M 5e4         /* kg, each wagon */
#define CHAIN_C 5e6         /* N/m, coupler spring */
#define CHAIN_D 2e5         /* N.s/m, coupler damping (a tenth of critical) */
#define CHAIN_GAP 0.02      /* m, buffer play each way */
#define CHAIN_K 2e7         /* N/m, buffer stiffness */
#define CHAIN_DB 2e5        /* N.s/m, buffer damping */
#define CHAIN_F 1.2e5       /* N, force step on the first wagon */
#define CHAIN_T_STEP 0.1    /* s, time of the step */
#define CHAIN_STOP 10.0     /* s */
#define CHAIN_RTOL 1e-6

#endif
