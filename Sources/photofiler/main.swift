import PhotoFilerCore

print("photofiler: not yet")
