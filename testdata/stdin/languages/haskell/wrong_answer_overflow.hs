-- expect: WA
-- 32-bit sums that wrap (2147483647 + 1 gives -2147483648).
import Data.Int (Int32)

main :: IO ()
main = do
  numbers <- map read . words <$> getContents :: IO [Int32]
  let pairs (a : b : rest) = (a + b) : pairs rest
      pairs _ = []
  mapM_ print (pairs (tail numbers))
