-- expect: CE
main :: IO ()
main = print (1 + "one")
