/*
 * research.h -- the research bots (research/): bots kept for experiments
 * and for the history of docs/research.md, built for the arena
 * (scopa-research), the benchmarks (bench/) and the training tools
 * (tools/), never into libscopa.  A program that links them calls
 * research_add_bots() once; their names then work wherever a bot name
 * does (scopa_bot_new, scopa_bot_names, the arena, the engine).
 */
#ifndef SCOPA_RESEARCH_H
#define SCOPA_RESEARCH_H

/* Adds dealend, dealnet and dealset to the library's registry.  Call at
 * the start of main, before any thread; calling it again does nothing.
 * SCOPA_OK, or SCOPA_EINVAL if the library already has a bot of one of
 * those names. */
int research_add_bots(void);

#endif
