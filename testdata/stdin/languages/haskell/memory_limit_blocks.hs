-- expect: MLE
-- 1000 KiB at a time (a ByteString filled with one byte), all kept, until the RTS's heap reaches
-- +RTS -M256m, the memory limit (the RTS counts more than the process holds: about 150 MiB resident).
import Control.Monad (forM_)
import qualified Data.ByteString.Char8 as B
import Data.IORef

main :: IO ()
main = do
  kept <- newIORef ([] :: [B.ByteString])
  forM_ [1 :: Int ..] $ \i -> do
    let block = B.replicate (1000 * 1024) (toEnum (i `mod` 128))
    B.length block `seq` modifyIORef' kept (block :)
