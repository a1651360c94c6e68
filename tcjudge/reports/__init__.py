"""What people read: terminal tables and report files."""
