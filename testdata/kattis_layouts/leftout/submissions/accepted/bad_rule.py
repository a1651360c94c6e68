# accepted, but submissions.yaml names a verdict the format does not have for it
print(int(input()) * 2)
