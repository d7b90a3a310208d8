# `scopa serve` (src/server): linked into the `scopa` command as a verb.
# libwebsockets (on libev), SQLite, libpq (PostgreSQL's client) and
# OpenSSL's libcrypto, libsodium come from Debian (scripts/bootstrap).
pkg_check_modules(LWS REQUIRED IMPORTED_TARGET libwebsockets)
pkg_check_modules(SQLITE3 REQUIRED IMPORTED_TARGET sqlite3)
pkg_check_modules(LIBPQ REQUIRED IMPORTED_TARGET libpq)
# libsodium: Argon2id for the accounts' passwords (auth.c).
pkg_check_modules(SODIUM REQUIRED IMPORTED_TARGET libsodium)
# libev (no pkg-config file in Debian): the loop lws runs on (loop.c).
find_path(EV_INCLUDE_DIR ev.h REQUIRED)
find_library(EV_LIBRARY ev REQUIRED)
set(SCOPA_SERVER_SOURCES
  src/server/main.c
  src/server/listen.c
  src/server/loop.c
  src/server/server.c
  src/server/http.c
  src/server/answer.c
  src/server/request.c
  src/server/conn.c
  src/server/dispatch.c
  src/server/table.c
  src/server/game.c
  src/server/lobby.c
  src/server/seek.c
  src/server/pairer.c
  src/server/pairing.c
  src/server/tourney_rules.c
  src/server/tourney_state.c
  src/server/tourney_game.c
  src/server/director.c
  src/server/tourneys.c
  src/server/tourney_lobby.c
  src/server/bank.c
  src/server/rematch.c
  src/server/offer.c
  src/server/react.c
  src/server/talk.c
  src/server/views.c
  src/server/moves.c
  src/server/bots.c
  src/server/store.c
  src/server/store_sqlite.c
  src/server/store_pg.c
  src/server/store_sqlite_acct.c
  src/server/store_pg_acct.c
  src/server/store_pg_relay.c
  src/server/store_sqlite_seek.c
  src/server/store_sqlite_talk.c
  src/server/store_pg_seek.c
  src/server/store_pg_talk.c
  src/server/store_sqlite_tourney.c
  src/server/store_pg_tourney.c
  src/server/auth.c
  src/server/auth_body.c
  src/server/account.c
  src/server/relay.c
  src/server/relay_bus.c
  src/server/writer.c
  src/server/rating.c
  src/server/glicko.c
  src/server/limits.c)
set(SCOPA_SERVER_LIBS PkgConfig::LWS PkgConfig::SQLITE3 PkgConfig::LIBPQ
    ${EV_LIBRARY} PkgConfig::LIBCRYPTO PkgConfig::SODIUM
    PkgConfig::JANSSON Threads::Threads m)
