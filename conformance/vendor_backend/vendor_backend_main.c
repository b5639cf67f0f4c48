/* The test lives in the shared library with the backend it tests (see CMakeLists.txt). */
int hg_vendor_backend_test_main(int argc, char **argv);
int main(int argc, char **argv) { return hg_vendor_backend_test_main(argc, argv); }
