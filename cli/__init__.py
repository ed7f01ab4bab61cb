def main():
    print("cli ok")
