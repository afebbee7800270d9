// Runs a Lua script with Lua's standard libraries: the smallest embedding of the interpreter
// (lua.c itself installs a signal handler, which WASI has not got).
//
// usage: lua_run SCRIPT.lua [ARGS...]   (ARGS become the script's `...`)
#include <stdio.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s SCRIPT.lua [ARGS...]\n", argv[0]);
        return 2;
    }
    lua_State *L = luaL_newstate();
    if (!L) {
        fprintf(stderr, "cannot create a Lua state\n");
        return 1;
    }
    luaL_openlibs(L);
    if (luaL_loadfile(L, argv[1]) != LUA_OK) {
        fprintf(stderr, "%s\n", lua_tostring(L, -1));
        return 1;
    }
    for (int i = 2; i < argc; i++)
        lua_pushstring(L, argv[i]);
    if (lua_pcall(L, argc - 2, 0, 0) != LUA_OK) {
        fprintf(stderr, "%s\n", lua_tostring(L, -1));
        return 1;
    }
    lua_close(L);
    return 0;
}
