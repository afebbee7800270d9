-- Exercises the parts of Lua that lean on the C runtime: errors caught by pcall (longjmp),
-- coroutines (each with its own C call chain), the garbage collector, string formatting and
-- files. Prints deterministic lines, compared with the native build's.
-- usage: lua_run check.lua [LOOP_COUNT [SCRATCH_FILE]]
local count, path = ...
local n = tonumber(count) or 200000

local ok, err = pcall(function() error({ code = 42 }) end)
print('pcall', ok, type(err), err.code)
ok, err = pcall(function() local t = nil; return t.x end)
print('runtime error caught', ok, (err:gsub('^.-:%d+: ', '')))
print('nested', select(2, pcall(function()
  local inner_ok, inner = pcall(error, 'inner')
  error('outer after ' .. tostring(inner_ok) .. ' ' .. inner, 0)
end)))

local gen = coroutine.wrap(function()
  for i = 1, 5 do coroutine.yield(i * i) end
end)
local squares = {}
for _ = 1, 5 do squares[#squares + 1] = gen() end
print('coroutine', table.concat(squares, ' '))
local co = coroutine.create(function() error('inside coroutine', 0) end)
print('coroutine error', coroutine.resume(co))

local sum, words = 0, {}
for i = 1, n do
  sum = (sum + i * i) % 1000000007
  if i % (n // 10) == 0 then words[#words + 1] = string.format('%x', i) end
end
print('loop', n, sum, table.concat(words, ','))
collectgarbage()
local t = {}
for i = 1, 1000 do t[i] = { i, tostring(i) } end
table.sort(t, function(a, b) return a[2] < b[2] end)
print('sorted', t[1][2], t[1000][2])

path = path or 'lua_check.txt'
local f = assert(io.open(path, 'w'))
f:write('line one\n', 'line two\n')
f:close()
local lines = {}
for line in io.lines(path) do lines[#lines + 1] = line end
os.remove(path)
print('file', #lines, lines[2])
