# Answers without reading the number, and ends before the interactor has flushed it: the interactor's
# rejection (43) stands, and its flush into a pipe nobody reads is not its failure (before: IE, the
# interactor exited 120 because its flush at exit failed on the closed pipe).
print(0)
