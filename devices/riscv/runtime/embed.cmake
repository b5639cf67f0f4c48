# Turns a binary file into a C source defining it as a byte array:
#   cmake -DIN=<file> -DOUT=<file.c> -DNAME=<symbol> -P embed.cmake
# defines `const unsigned char NAME[]` and `const size_t NAME_size`.
file(READ "${IN}" HEX HEX)
string(LENGTH "${HEX}" NHEX)
math(EXPR NBYTES "${NHEX} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," BYTES "${HEX}")
# 16 bytes per line
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n  " BYTES "${BYTES}")
file(WRITE "${OUT}.tmp"
  "/* Generated from ${IN} by devices/riscv/runtime/embed.cmake: do not edit. */\n"
  "#include <stddef.h>\n\n"
  "__attribute__((aligned(16))) const unsigned char ${NAME}[${NBYTES}] = {\n  ${BYTES}\n};\n"
  "const size_t ${NAME}_size = ${NBYTES};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
