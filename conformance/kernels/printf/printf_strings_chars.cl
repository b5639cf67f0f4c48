//@ kernel printf_strings_chars
//@ global 4
//@ local 2
//@ arg in uchar 4 random 65 90
// printf with %c and %s (literal strings and __constant program-scope strings), %%, a format
// with no arguments, and width/precision on strings. Only work-item 0 prints.
__constant char greeting[] = "hello from the corpus";
__kernel void printf_strings_chars(__global const uchar *in)
{
    if (get_global_id(0) != 0) return;
    printf("plain text with no arguments\n");
    printf("c=%c%c%c%c 100%%\n", in[0], in[1], in[2], in[3]);
    printf("s=%s [%12s] [%-12s] [%.3s]\n", "str", "right", "left", "truncated");
    printf("const=%s\n", greeting);
}
