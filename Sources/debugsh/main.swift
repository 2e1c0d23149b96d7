print("debugsh")
