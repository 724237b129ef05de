/* test/Pipelines/Inputs/empty-main.c — a main() so that a lowered module
   links into an executable: the link itself is the check (every symbol the
   generated code calls must be defined without libmlir_c_runner_utils). */
int main(void) { return 0; }
