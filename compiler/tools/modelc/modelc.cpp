// placeholder driver (replaced by the front-end work)
#include "llvm/Support/raw_ostream.h"
int main() { llvm::outs() << "modelc\n"; return 0; }
