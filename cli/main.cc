#include "cli/commands.h"

int main(int argc, char** argv) { return memplan::RunCli(argc, argv); }
