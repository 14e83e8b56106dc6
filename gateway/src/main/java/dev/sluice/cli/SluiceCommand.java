package dev.sluice.cli; public class SluiceCommand { public static void main(String[] a) {} }
