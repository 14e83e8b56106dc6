package dev.sluice.demo;

import java.util.List;

/** Embedded word lists the generator draws from; nothing is downloaded. */
final class DemoNames {

  static final List<String> FIRST_NAMES = List.of(
      "Anna", "Ben", "Clara", "David", "Emma", "Felix", "Greta", "Hannah", "Isabel", "Jonas",
      "Karl", "Laura", "Lukas", "Maria", "Noah", "Olivia", "Paul", "Quentin", "Rosa", "Sofia",
      "Tom", "Ursula", "Victor", "William", "Xavier", "Yara", "Zoë", "Amélie", "Björn", "Chloé",
      "Diego", "Élodie", "Fatima", "Giulia", "Hiroshi", "Ingrid", "James", "Jürgen", "Kenji", "Léa",
      "Mateo", "Mia", "Nina", "Oliver", "Pedro", "Priya", "Rafael", "Sarah", "Søren", "Thomas",
      "Yuki", "Łukasz", "Mohammed", "Elena", "Lucas", "Charlotte", "Henry", "Grace", "Samuel", "Ava");

  static final List<String> LAST_NAMES = List.of(
      "Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Martin", "Bernard", "Dubois", "Lefèvre", "Moreau",
      "Smith", "Jones", "Taylor", "Brown", "Wilson", "García", "Fernández", "López", "Martínez", "Sánchez",
      "Rossi", "Russo", "Bianchi", "Johnson", "Williams", "Miller", "Davis", "Anderson", "Tremblay", "Roy",
      "Sato", "Suzuki", "Tanaka", "Watanabe", "Silva", "Santos", "Oliveira", "Souza", "Nowak", "Kowalski",
      "Jensen", "Nielsen", "Larsen", "de Vries", "van Dijk", "Janssen", "O'Brien", "Murphy", "Kelly", "Novak",
      "Horvat", "Popescu", "Ivanova", "Yılmaz", "Kaya", "Chen", "Wang", "Kim", "Park", "Nguyen");

  /** City, country, relative weight of customers living there. */
  record City(String city, String country, int weight) {}

  static final List<City> CITIES = List.of(
      new City("Berlin", "Germany", 90), new City("Munich", "Germany", 60),
      new City("Hamburg", "Germany", 45), new City("Cologne", "Germany", 30),
      new City("Paris", "France", 80), new City("Lyon", "France", 35), new City("Marseille", "France", 25),
      new City("London", "United Kingdom", 90), new City("Manchester", "United Kingdom", 35),
      new City("Edinburgh", "United Kingdom", 15),
      new City("Madrid", "Spain", 50), new City("Barcelona", "Spain", 45),
      new City("Rome", "Italy", 35), new City("Milan", "Italy", 35),
      new City("Amsterdam", "Netherlands", 35), new City("Zürich", "Switzerland", 20),
      new City("Vienna", "Austria", 20), new City("Kraków", "Poland", 15),
      new City("New York", "United States", 80), new City("Chicago", "United States", 40),
      new City("San Francisco", "United States", 35), new City("Austin", "United States", 20),
      new City("Toronto", "Canada", 35), new City("Montréal", "Canada", 20), new City("Vancouver", "Canada", 15),
      new City("Tokyo", "Japan", 45), new City("Osaka", "Japan", 15),
      new City("São Paulo", "Brazil", 35), new City("Rio de Janeiro", "Brazil", 15),
      new City("Sydney", "Australia", 20), new City("Melbourne", "Australia", 15));

  static final List<String> ADJECTIVES = List.of(
      "Ergonomic", "Rustic", "Sleek", "Compact", "Deluxe", "Classic", "Modern", "Vintage",
      "Handcrafted", "Lightweight", "Durable", "Elegant", "Practical", "Premium", "Smart", "Portable");

  static final List<String> MATERIALS = List.of(
      "Steel", "Wooden", "Cotton", "Leather", "Bamboo", "Ceramic", "Glass", "Plastic",
      "Wool", "Aluminum", "Granite", "Rubber", "Linen", "Copper");

  /** Category, its SKU prefix, price range in EUR and the nouns of its products. */
  record Category(String name, String skuPrefix, int minPrice, int maxPrice, List<String> nouns) {}

  static final List<Category> CATEGORIES = List.of(
      new Category("Electronics", "ELE", 15, 450,
          List.of("Headphones", "Speaker", "Keyboard", "Mouse", "Monitor Stand", "Charger", "Webcam")),
      new Category("Home", "HOM", 10, 320,
          List.of("Chair", "Table", "Lamp", "Shelf", "Clock", "Vase", "Mirror")),
      new Category("Garden", "GAR", 8, 260,
          List.of("Planter", "Hose Reel", "Shovel", "Bench", "Birdhouse", "Rake")),
      new Category("Books", "BOO", 6, 45,
          List.of("Notebook", "Journal", "Sketchbook", "Cookbook", "Bookend", "Atlas")),
      new Category("Toys", "TOY", 5, 90,
          List.of("Puzzle", "Robot", "Kite", "Train Set", "Building Blocks", "Yo-Yo")),
      new Category("Sports", "SPO", 8, 220,
          List.of("Yoga Mat", "Dumbbell", "Water Bottle", "Helmet", "Racket", "Jump Rope")),
      new Category("Clothing", "CLO", 10, 190,
          List.of("Jacket", "Shirt", "Scarf", "Hat", "Gloves", "Socks", "Belt")),
      new Category("Beauty", "BEA", 4, 70,
          List.of("Hairbrush", "Comb", "Soap Dish", "Candle", "Manicure Set", "Toiletry Bag")));

  private DemoNames() {}
}
