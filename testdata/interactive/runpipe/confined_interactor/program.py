# expect: WA
# Ends at once; the interactor reports what its confinement let it do, and rejects.
pass
