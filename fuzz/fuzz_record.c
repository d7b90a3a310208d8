/*
 * fuzz_record.c -- libFuzzer target for the record reader: any bytes go
 * through scopa_replay_text; a valid record must also survive being written
 * back and read again with the same result (parse(print(x)) == x), and a
 * fault's message must be safe to print (fuzz_check.h).
 */
#include "scopa.h"

#include "fuzz_check.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static void check_round_trip(const scopa_replay *rp) {
  scopa_record *rec = scopa_record_from_replay(rp);
  char *text = rec ? scopa_record_json(rec) : NULL;
  if (text) {
    scopa_replay again;
    scopa_fault fault;
    int rc = scopa_replay_text(text, strlen(text), &again, &fault);
    assert(rc == SCOPA_OK);
    assert(again.nrounds == rp->nrounds);
    assert(again.game.finished == rp->game.finished);
    assert(again.game.winner == rp->game.winner);
    for (int i = 0; i < rp->game.sides; i++)
      assert(again.game.totals[i] == rp->game.totals[i]);
    scopa_replay_free(&again);
  }
  free(text);
  scopa_record_free(rec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  scopa_replay rp;
  scopa_fault fault;
  if (scopa_replay_text((const char *)data, size, &rp, &fault) == SCOPA_OK) {
    check_round_trip(&rp);
    scopa_replay_free(&rp);
  } else {
    assert(fault.message[0] != 0);
    fuzz_check_safe(fault.message, 0); /* printed by replay as it is */
  }
  return 0;
}
